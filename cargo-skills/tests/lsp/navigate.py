"""A real LSP client (pygls's LanguageClient) asking `cargo-skills lsp`
for symbols, folding, document links, definitions, hovers on links and
references in the package in WORKSPACE; prints what it saw as one JSON
object for the Rust test to judge.

    python3 navigate.py SERVER WORKSPACE SKILL_FILE
"""

import asyncio
import json
import pathlib
import sys

from lsprotocol import types
from session import open_document, start, stop


def spot(range_):
    return [range_.start.line, range_.start.character, range_.end.line, range_.end.character]


def relative(root, uri):
    return str(pathlib.Path(uri.removeprefix("file://")).relative_to(root))


async def main(server, workspace, skill_file):
    root = pathlib.Path(workspace).resolve()
    path = root / skill_file
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    client, published, _ = await start(server, root)

    def at(needle, by=1):
        line = next(i for i, l in enumerate(lines) if needle in l)
        column = len(lines[line][: lines[line].index(needle)].encode("utf-16-le")) // 2
        return dict(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=column + by),
        )

    seen = {}
    open_document(client, uri, text)
    opened = await asyncio.wait_for(published.get(), timeout=60)
    seen["diagnostics"] = sorted(
        [str(d.code), d.code_description.href if d.code_description else None]
        for d in opened.diagnostics
    )
    document = types.TextDocumentIdentifier(uri=uri)

    # The workspace as on disk, the open document left to its own pull.
    workspace = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    seen["workspace"] = sorted(
        [relative(root, report.uri), sorted({str(d.code) for d in report.items})]
        for report in workspace.items
    )

    # Lenses: on the valid `notes` (the tracker has an error: not listed).
    notes = root / "skills/notes/SKILL.md"
    open_document(client, notes.as_uri(), notes.read_text(encoding="utf-8"))
    await asyncio.wait_for(published.get(), timeout=60)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=notes.as_uri()))
    )
    seen["lenses"] = [[spot(l.range), l.command.title] for l in lenses if not l.command.command]
    routed = [l for l in lenses if l.command.command]
    seen["routed_lens"] = [[spot(l.range), l.command.title, l.command.command] for l in routed]
    if routed:
        ran = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command=routed[0].command.command, arguments=routed[0].command.arguments
            )
        )
        seen["routed_ran"] = ran
    tracker_lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=document)
    )
    seen["tracker_lenses"] = len(tracker_lenses)

    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=document)
    )

    def tree(symbol):
        children = [tree(child) for child in (symbol.children or [])]
        return [symbol.name, int(symbol.kind)] + ([children] if children else [])

    seen["symbols"] = [tree(s) for s in symbols]

    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=document)
    )
    seen["folds"] = sorted([f.start_line, f.end_line] for f in folds)

    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=document)
    )
    seen["links"] = [[spot(l.range), relative(root, l.target)] for l in links]

    async def definition(needle):
        found = await client.text_document_definition_async(
            types.DefinitionParams(**(at(needle)))
        )
        if found is None:
            return None
        return [relative(root, found.uri), spot(found.range)]

    seen["definition_file_heading"] = await definition("references/api.md#errors")
    seen["definition_here"] = await definition("#usage")
    seen["definition_other_skill"] = await definition("../notes/SKILL.md")
    seen["definition_prose"] = await definition("Look the")

    async def hover(needle, by=1):
        found = await client.text_document_hover_async(
            types.HoverParams(**(at(needle, by)))
        )
        return None if found is None else found.contents.value

    seen["hover_link"] = await hover("references/api.md#errors")
    seen["hover_broken"] = await hover("references/gone.md")

    refs = await client.text_document_references_async(
        types.ReferenceParams(
            **(at("references/api.md#errors")),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    seen["references"] = sorted([relative(root, r.uri), spot(r.range)] for r in refs)

    # Completion: an anchor after `#`, a file in a link, a key.
    async def complete(needle, by):
        found = await client.text_document_completion_async(
            types.CompletionParams(**at(needle, by))
        )
        items = found.items if hasattr(found, "items") else found
        return sorted(item.label for item in items or [])

    seen["complete_anchor"] = await complete("#usage", 1)
    seen["complete_file"] = await complete("references/api.md#errors", 0)
    seen["complete_key"] = await complete("description:", 2)

    # Rename the `Usage` heading: its title and the `#usage` link.
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(**at("## Usage", 4))
    )
    seen["prepared"] = [spot(prepared.range), prepared.placeholder]
    renamed = await client.text_document_rename_async(
        types.RenameParams(**at("## Usage", 4), new_name="How to ask")
    )
    seen["renamed"] = sorted(
        [relative(root, changed), spot(edit.range), edit.new_text]
        for changed, edits in renamed.changes.items()
        for edit in edits
    )
    try:
        await client.text_document_rename_async(
            types.RenameParams(**at("Look the", 1), new_name="x")
        )
        seen["rename_prose"] = "renamed"
    except Exception as error:
        seen["rename_prose"] = type(error).__name__

    # A sidecar `tools.yaml` not saved yet: checked with its skill.
    tools = root / "skills/notes/tools.yaml"
    tools_text = "tools:\n  - name: list_notes\n    description: Every note.\n    endpoint: { url: \"https://notes.example/all\", method: get }\n"
    open_document(client, tools.as_uri(), tools_text, "yaml")
    sidecar = await asyncio.wait_for(published.get(), timeout=60)
    seen["tools_yaml"] = [[str(d.code), spot(d.range)] for d in sidecar.diagnostics]
    seen["tools_yaml_symbols"] = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=tools.as_uri()))
    )

    # A vendored skill: its problems say so, and nothing is offered.
    shared = root / "skills/shared/SKILL.md"
    shared_uri = shared.as_uri()
    shared_text = shared.read_text(encoding="utf-8")
    open_document(client, shared_uri, shared_text)
    vendored = await asyncio.wait_for(published.get(), timeout=60)
    seen["vendored"] = [[str(d.code), d.message] for d in vendored.diagnostics]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=shared_uri),
            range=types.Range(
                start=types.Position(line=0, character=0),
                end=types.Position(line=20, character=0),
            ),
            context=types.CodeActionContext(diagnostics=vendored.diagnostics),
        )
    )
    seen["vendored_actions"] = len(actions or [])
    # Its `tools.yaml`, as the editor holds it: vendored too.
    shared_tools = root / "skills/shared/tools.yaml"
    open_document(client, shared_tools.as_uri(), tools_text.replace("list_notes", "share"), "yaml")
    vendored_tools = await asyncio.wait_for(published.get(), timeout=60)
    seen["vendored_tools"] = [[str(d.code), d.message] for d in vendored_tools.diagnostics]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=shared_tools.as_uri()),
            range=types.Range(
                start=types.Position(line=0, character=0),
                end=types.Position(line=9, character=0),
            ),
            context=types.CodeActionContext(diagnostics=vendored_tools.diagnostics),
        )
    )
    seen["vendored_tools_actions"] = len(actions or [])

    # A tool's and a placeholder's hover, once the skill compiles (the
    # broken link mended).
    seen["hover_tool_broken_skill"] = await hover("get_issue")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(
                    text=text.replace("references/gone.md", "references/api.md")
                )
            ],
        )
    )
    while (await asyncio.wait_for(published.get(), timeout=60)).uri != uri:
        pass
    seen["hover_tool"] = await hover("get_issue")
    seen["hover_placeholder"] = await hover("{{number}}", 3)

    unknown = types.TextDocumentIdentifier(uri=(root / "nowhere.md").as_uri())
    seen["unknown_symbols"] = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=unknown)
    )

    seen["exit"] = await stop(client)
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
