"""Random edits through a real LSP client (pygls's LanguageClient): EDITS
incremental changes to one skill file of WORKSPACE, drawn from SEED (the
nasty ones too: fences, half links, placeholders, text beyond the Basic
Multilingual Plane, CRLF, a BOM), each followed by a request at a random
position. Then the document is closed and opened again whole: its pulled
diagnostics must be those the incremental edits led to. Prints what it saw
as one JSON object.

    python3 edits.py SERVER WORKSPACE SKILL_FILE SEED EDITS
"""

import asyncio
import json
import pathlib
import random
import sys

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from session import open_document, start as start_server, stop

PIECES = [
    "", "---\n", "---", "\n", "\r\n", "\ufeff", "name: ", "description: ", "tools:\n",
    "  - name: t\n", "    endpoint: { url: \"https://x/{{id}}\", method: get }\n",
    "](", "[a](", "#", "(#", ")", "{{", "}}", "𝄞", "é", "\t", ":", "- ", "  ",
    "references/api.md", "# Heading\n", "x", "\"", "'", "{", "}", "[", "]",
]


def position(text, offset):
    """The LSP position (UTF-16) of code point `offset` of `text`."""
    before = text[:offset]
    line = before.count("\n")
    start = before.rfind("\n") + 1
    return types.Position(line=line, character=len(before[start:].encode("utf-16-le")) // 2)


async def main(server, workspace, skill_file, seed, edits):
    rng = random.Random(int(seed))
    root = pathlib.Path(workspace).resolve()
    uri = (root / skill_file).as_uri()
    text = (root / skill_file).read_text(encoding="utf-8")
    client, _, _ = await start_server(server, root)
    document = types.TextDocumentIdentifier(uri=uri)
    open_document(client, uri, text)
    seen = {"answered": 0, "errors": {}}
    for version in range(2, int(edits) + 2):
        start = rng.randint(0, len(text))
        end = min(len(text), start + rng.choice([0, 0, 1, 2, 5, 20]))
        piece = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3)))
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=position(text, start), end=position(text, end)),
            text=piece,
        )
        text = text[:start] + piece + text[end:]
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change],
            )
        )
        at = position(text, rng.randint(0, len(text)))
        where = dict(text_document=document, position=at)
        ask = rng.choice([
            lambda: client.text_document_hover_async(types.HoverParams(**where)),
            lambda: client.text_document_completion_async(types.CompletionParams(**where)),
            lambda: client.text_document_definition_async(types.DefinitionParams(**where)),
            lambda: client.text_document_references_async(
                types.ReferenceParams(**where, context=types.ReferenceContext(include_declaration=True))
            ),
            lambda: client.text_document_prepare_rename_async(types.PrepareRenameParams(**where)),
            lambda: client.text_document_rename_async(types.RenameParams(**where, new_name="New")),
            lambda: client.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=document)
            ),
            lambda: client.text_document_folding_range_async(
                types.FoldingRangeParams(text_document=document)
            ),
            lambda: client.text_document_document_link_async(
                types.DocumentLinkParams(text_document=document)
            ),
            lambda: client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=document,
                    range=types.Range(start=at, end=at),
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
            lambda: client.text_document_formatting_async(
                types.DocumentFormattingParams(
                    text_document=document,
                    options=types.FormattingOptions(tab_size=2, insert_spaces=True),
                )
            ),
        ])
        try:
            await asyncio.wait_for(ask(), timeout=60)
            seen["answered"] += 1
        except JsonRpcException as error:
            # An error answer is an answer; which kinds, is judged.
            name = str(getattr(error, "code", type(error).__name__))
            seen["errors"][name] = seen["errors"].get(name, 0) + 1
            seen["answered"] += 1

    async def pulled():
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=document)
        )
        symbols = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=document)
        )
        folds = await client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=document)
        )

        def names(found):
            return [[s.name, names(s.children or [])] for s in found or []]

        return {
            "diagnostics": sorted(
                [str(d.code), d.range.start.line, d.range.start.character] for d in report.items
            ),
            "symbols": names(symbols),
            "folds": sorted([f.start_line, f.end_line] for f in folds or []),
        }

    seen["incremental"] = await pulled()
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=document))
    open_document(client, uri, text)
    seen["whole"] = await pulled()
    seen["final_bytes"] = len(text.encode("utf-8"))
    seen["exit"] = await stop(client)
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
