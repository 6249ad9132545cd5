"""The client side of the MCP server test: the official SDK's client calls the server's tools over
stdio inside the trace named by TRACEPARENT (the agent's conversation, whose model calls wrote the
calls). The SDK puts the trace context in each request's `_meta`, so the server's spans join it."""

import asyncio
import os
import sys

from opentelemetry import context, trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from mcp import Client
from mcp.client.stdio import StdioServerParameters

trace.set_tracer_provider(TracerProvider())  # the client's own spans are not exported here


async def main() -> None:
    server = StdioServerParameters(
        command=sys.executable,
        args=[os.path.join(os.path.dirname(__file__), "mcp_loan_server.py")],
        env={k: v for k, v in os.environ.items() if k.startswith("OTEL_")},
    )
    parent = TraceContextTextMapPropagator().extract({"traceparent": os.environ["TRACEPARENT"]})
    token = context.attach(parent)
    try:
        async with Client(server) as client:
            ok = await client.call_tool("getloan", {"loannumber": "4471"})
            refused = await client.call_tool("closeloan", {"loannumber": "4471"})
            print(ok.is_error, refused.is_error, client.protocol_version if hasattr(client, "protocol_version") else "")
    finally:
        context.detach(token)


asyncio.run(main())
