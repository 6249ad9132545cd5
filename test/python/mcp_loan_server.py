"""An MCP server of the official Python SDK (mcp 2.x), traced by the SDK's own
OpenTelemetryMiddleware and exported with the OpenTelemetry SDK's OTLP/HTTP exporter, configured
only by the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, OTEL_SERVICE_NAME).
Run over stdio by mcp_loan_client.py for app/v1/traces/mcp-server-spans.integration.test.ts."""

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

provider = TracerProvider()
provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
trace.set_tracer_provider(provider)

from mcp.server.mcpserver import MCPServer  # noqa: E402  (after the provider, as a harness sets it up first)

server = MCPServer("loans")


@server.tool()
def getloan(loannumber: str) -> str:
    """Fetch a loan by its number."""
    return f"loan {loannumber}: balance 12,300"


@server.tool()
def closeloan(loannumber: str) -> str:
    """Close a loan."""
    raise ValueError(f"loan {loannumber} has an open balance")


if __name__ == "__main__":
    try:
        server.run("stdio")
    finally:
        provider.shutdown()
