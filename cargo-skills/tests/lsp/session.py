"""What every test client does with `cargo-skills lsp`: start it with
pygls's LanguageClient on a workspace, open documents, shut it down."""

import asyncio

from lsprotocol import types
from pygls.lsp.client import LanguageClient


async def start(server, root):
    """The client, a queue of the diagnostics the server publishes, and the
    server's answer to `initialize`."""
    client = LanguageClient("skills-test", "1")
    published = asyncio.Queue()
    client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(
        lambda params: published.put_nowait(params)
    )
    await client.start_io(server, "lsp", cwd=str(root))
    initialized = await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="w")],
        )
    )
    client.initialized(types.InitializedParams())
    return client, published, initialized


def open_document(client, uri, text, language="markdown"):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=language, version=1, text=text
            )
        )
    )


async def stop(client):
    """`shutdown`, then `exit`: the server's exit code."""
    await client.shutdown_async(None)
    client.exit(None)
    code = await asyncio.wait_for(client._server.wait(), timeout=30)
    await client.stop()
    return code
