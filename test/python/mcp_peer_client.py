"""The official Python MCP client for the gateway's tests: one session of tool calls.

    python mcp_peer_client.py MODE TARGET...

MODE: auto (the SDK's default: server/discover, protocol 2026-07-28) or legacy (the initialize
handshake, 2025-11-25). TARGET: a Streamable HTTP URL, or the stdio server's command. Prints one
JSON object: the protocol version, the tools listed, and what each call gave (the result, or
the exception the client raised).
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters

MODE, TARGET = sys.argv[1], sys.argv[2:]

CALLS = [
    ("get_loan", {"amount": 1000, "currency": "EUR"}),  # valid
    ("get_loan", {"amount": "lots", "currency": "EUR"}),  # invalid: a string for an integer
    ("get_loan", {"amount": 500, "currency": "USD"}),  # the correction
    ("getloan", {"amount": 1, "currency": "EUR"}),  # a tool the server does not have
    ("get_loan", {"amount": 1, "currency": "EUR"}),  # the correction
]


def outcome(result):
    text = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    return {"isError": bool(result.is_error), "text": text}


async def main():
    if TARGET[0].startswith("http"):
        target = TARGET[0]
    else:
        target = StdioServerParameters(command=TARGET[0], args=TARGET[1:])
    async with Client(target, mode=MODE) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        results = []
        for name, arguments in CALLS:
            try:
                results.append(outcome(await client.call_tool(name, arguments)))
            except Exception as error:  # what the client raises is what an agent built on it sees
                results.append({"raised": type(error).__name__, "message": str(error)})
        print(json.dumps({"protocolVersion": client.protocol_version, "tools": tools, "results": results}))


asyncio.run(main())
