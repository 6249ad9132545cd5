"""The official Python MCP client for the gateway's tests: sessions of tool calls, run at once.

    python mcp_peer_client.py PLAN_JSON

PLAN_JSON: {"<session name>": {"mode": "auto" | "legacy", "target": URL | {"command": [...], "env": {...}}}, ...}.
mode auto is the SDK's default (server/discover, protocol 2026-07-28); legacy is the initialize
handshake (2025-11-25). Each session lists the tools and makes the calls in CALLS, one after the
other. Prints one JSON object: per session, the protocol version, the tools listed, and what each
call gave (the result, or the exception the client raised: what an agent built on it would see).
"""

import asyncio
import json
import sys

from mcp import Client, Implementation, StdioServerParameters

CALLS = [
    ("get_loan", {"amount": 1000, "currency": "EUR"}),  # valid
    ("get_loan", {"amount": "lots", "currency": "EUR"}),  # invalid: a string for an integer
    ("get_loan", {"amount": 500, "currency": "USD"}),  # its correction
    ("getloan", {"amount": 1, "currency": "EUR"}),  # a tool the server does not have
    ("get_loan", {"amount": 1, "currency": "EUR"}),  # its correction
]


def outcome(result):
    return {"isError": bool(result.is_error), "text": [c.text for c in result.content if getattr(c, "type", None) == "text"]}


async def session(mode, target):
    if isinstance(target, dict):
        command = target["command"]
        target = StdioServerParameters(command=command[0], args=command[1:], env=target.get("env"))
    async with Client(target, mode=mode, client_info=Implementation(name="py-agent", version="2.3.0")) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        results = []
        for name, arguments in CALLS:
            try:
                results.append(outcome(await client.call_tool(name, arguments)))
            except Exception as error:
                results.append({"raised": type(error).__name__, "message": str(error)})
        return {"protocolVersion": client.protocol_version, "tools": tools, "results": results}


async def main():
    plan = json.loads(sys.argv[1])
    at_once = asyncio.Semaphore(3)  # a few stdio servers started at a time: the machine running the tests is small

    async def limited(s):
        if isinstance(s["target"], str):
            return await session(s["mode"], s["target"])
        async with at_once:
            return await session(s["mode"], s["target"])

    done = await asyncio.gather(*(limited(s) for s in plan.values()))
    print(json.dumps(dict(zip(plan.keys(), done))))


asyncio.run(main())
