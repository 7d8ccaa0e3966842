"""A real LSP client (pygls's LanguageClient) driving `cargo-skills lsp`
through one editing session on the package in WORKSPACE; prints what it
saw as one JSON object for the Rust test to judge.

    python3 client.py SERVER WORKSPACE SKILL_FILE
"""

import asyncio
import json
import pathlib
import sys

from lsprotocol import types
from session import open_document, start, stop


async def main(server, workspace, skill_file):
    root = pathlib.Path(workspace).resolve()
    path = root / skill_file
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    client, published, init = await start(server, root)

    async def next_published():
        return await asyncio.wait_for(published.get(), timeout=60)

    def codes(diagnostics):
        return sorted(str(d.code) for d in diagnostics)

    seen = {}
    seen["server"] = init.server_info.name
    seen["sync"] = int(init.capabilities.text_document_sync)
    open_document(client, uri, text)
    opened = await next_published()
    seen["opened"] = codes(opened.diagnostics)
    first = opened.diagnostics[0]
    seen["opened_range"] = [
        first.range.start.line,
        first.range.start.character,
        first.range.end.line,
        first.range.end.character,
    ]

    # Hover on the `method` key, and on the body (nothing).
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if "method:" in l)
    column = len(lines[line][: lines[line].index("method")].encode("utf-16-le")) // 2
    hovered = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=column + 2),
        )
    )
    seen["hover"] = hovered.contents.value.split("\n")[0]
    seen["hover_range"] = [hovered.range.start.character, hovered.range.end.character]
    seen["hover_column"] = column
    body = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=len(lines) - 2, character=3),
        )
    )
    seen["hover_body"] = body

    pulled = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri)
        )
    )
    seen["pulled"] = codes(pulled.items)

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=first.range,
            context=types.CodeActionContext(diagnostics=[first]),
        )
    )
    kind = lambda action: str(getattr(action.kind, "value", action.kind))
    seen["actions"] = [[a.title, kind(a)] for a in actions]
    quick = next(a for a in actions if kind(a) == "quickfix")
    edit = quick.edit.changes[uri][0]

    # The quick fix applied as an editor applies it: an incremental change.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=edit.range, text=edit.new_text
                )
            ],
        )
    )
    fixed = await next_published()
    seen["fixed"] = codes(fixed.diagnostics)
    seen["fixed_version"] = fixed.version

    # `fmt` as document formatting: applied, checked again, and then
    # nothing more to do.
    formatted = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    seen["format_edits"] = len(formatted)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text=formatted[0].new_text)
            ],
        )
    )
    seen["formatted_text"] = formatted[0].new_text
    seen["formatted"] = codes((await next_published()).diagnostics)
    again = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    seen["format_again"] = len(again)

    # Half a frontmatter, as typing leaves it.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=4),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text="---\nname: tr")
            ],
        )
    )
    half = await next_published()
    seen["half"] = codes(half.diagnostics)

    try:
        await client.protocol.send_request_async("skills/unknown", {})
        seen["unknown"] = "answered"
    except Exception as error:  # the server's error answer
        seen["unknown"] = type(error).__name__
    still = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri)
        )
    )
    seen["still_answering"] = codes(still.items) == seen["half"]

    seen["exit"] = await stop(client)
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
