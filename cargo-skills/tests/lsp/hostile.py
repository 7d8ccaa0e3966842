"""Hostile documents through a real LSP client (pygls's LanguageClient):
each FILE of WORKSPACE is opened as it is on disk (read as bytes and
decoded with replacement, as an editor shows invalid UTF-8), and asked for
diagnostics, symbols, folding, links, a hover, a completion, a definition
and references in its middle; then requests on a document never opened.
Prints, per file, the codes published and the requests answered.

    python3 hostile.py SERVER WORKSPACE FILE...
"""

import asyncio
import json
import pathlib
import sys

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from session import open_document, start, stop


async def main(server, workspace, *files):
    root = pathlib.Path(workspace).resolve()
    client, published, _ = await start(server, root)
    seen = {}

    async def ask(uri, line):
        document = types.TextDocumentIdentifier(uri=uri)
        where = dict(text_document=document, position=types.Position(line=line, character=3))
        asks = [
            client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document)),
            client.text_document_folding_range_async(types.FoldingRangeParams(text_document=document)),
            client.text_document_document_link_async(types.DocumentLinkParams(text_document=document)),
            client.text_document_hover_async(types.HoverParams(**where)),
            client.text_document_completion_async(types.CompletionParams(**where)),
            client.text_document_definition_async(types.DefinitionParams(**where)),
            client.text_document_references_async(
                types.ReferenceParams(**where, context=types.ReferenceContext(include_declaration=True))
            ),
            client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=document)),
        ]
        answered = []
        for request in asks:
            try:
                found = await asyncio.wait_for(request, timeout=120)
                answered.append("null" if found is None else "answer")
            except JsonRpcException as error:
                answered.append(f"error {error.code}")
        return answered

    for file in files:
        path = root / file
        text = path.read_bytes().decode("utf-8", errors="replace")
        uri = path.as_uri()
        open_document(client, uri, text)
        diagnostics = await asyncio.wait_for(published.get(), timeout=120)
        seen[file] = {
            "codes": sorted({str(d.code) for d in diagnostics.diagnostics}),
            "first": [
                [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character]
                for d in diagnostics.diagnostics
            ][:1],
            "answered": await ask(uri, text.count("\n") // 2),
        }
    never = (root / "skills/never/SKILL.md").as_uri()
    seen["never opened"] = await ask(never, 0)
    seen["exit"] = await stop(client)
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
