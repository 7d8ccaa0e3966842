"""Time from a `didChange` to its diagnostics, through pygls's real client:
the document opened, then N one-character edits, each waited for.

    python3 lsp-latency.py SERVER WORKSPACE N    (tests/benches/lsp-latency.sh runs it)

Prints one JSON object: the open's time, the changes' median, p90 and
max in milliseconds, and one of each request that reads more than the
document (hover, completion, symbols, references over the root, the code lenses (the
workspace's catalogue and cases), the workspace's diagnostics: the whole root checked).
"""

import asyncio, pathlib, sys, time, json
from lsprotocol import types
from pygls.lsp.client import LanguageClient

async def main(server, workspace, n_changes):
    root = pathlib.Path(workspace).resolve()
    path = root / "skills/s0000/SKILL.md"
    uri = path.as_uri(); text = path.read_text()
    client = LanguageClient("bench", "1"); q = asyncio.Queue()
    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on(p): q.put_nowait(time.perf_counter())
    await client.start_io(server, "lsp", cwd=str(root))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=root.as_uri()))
    client.initialized(types.InitializedParams())
    t0=time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)))
    t1=await q.get(); opened=t1-t0
    lat=[]
    for v in range(int(n_changes)):
        t0=time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v+2), content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=types.Position(line=len(text.splitlines()), character=0), end=types.Position(line=len(text.splitlines()), character=0)), text="x")]))
        t1=await q.get(); lat.append((t1-t0)*1000)
    lat.sort()
    document = types.TextDocumentIdentifier(uri=uri)
    where = dict(text_document=document, position=types.Position(line=1, character=2))
    asks = {
        "hover_ms": lambda: client.text_document_hover_async(types.HoverParams(**where)),
        "completion_ms": lambda: client.text_document_completion_async(types.CompletionParams(**where)),
        "symbols_ms": lambda: client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document)),
        "references_ms": lambda: client.text_document_references_async(types.ReferenceParams(**where, context=types.ReferenceContext(include_declaration=True))),
        "lenses_ms": lambda: client.text_document_code_lens_async(types.CodeLensParams(text_document=document)),
        "workspace_ms": lambda: client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])),
    }
    timed = {}
    for name, ask in asks.items():
        t0 = time.perf_counter(); await ask(); timed[name] = round((time.perf_counter() - t0) * 1000, 1)
    await client.shutdown_async(None); client.exit(None); await client.stop()
    print(json.dumps({"open_ms": round(opened*1000,1), "median_ms": round(lat[len(lat)//2],1), "p90_ms": round(lat[int(len(lat)*0.9)],1), "max_ms": round(lat[-1],1), **timed}))
asyncio.run(main(*sys.argv[1:4]))
