"""The official Python MCP client for the gateway's tests: sessions of tool calls, run at once.

    python mcp_peer_client.py PLAN_JSON

PLAN_JSON: {"<session name>": {"mode": MODE, "target": URL | {"command": [...], "env": {...}},
"list": "first" | "last", "script": "loans" | "change"}, ...}.
MODE auto is the SDK's default (server/discover, protocol 2026-07-28); legacy is the initialize
handshake (2025-11-25); "2026-07-28" pins that version with no server/discover at all.
list (default "first"): the session lists the tools before its calls, or only after them (the
gateway must then list them itself to check the calls).
script (default "loans"): the calls in CALLS, one after the other; "change" (a --changing
server): the calls in CHANGE_CALLS with a `subscriptions/listen` stream open, waiting after
change_loans for the notifications/tools/list_changed that stream must bring.
Prints one JSON object: per session, the protocol version, the tools listed, the change events
the listen stream brought, and what each call gave (the result, or the exception the client
raised: what an agent built on it would see).
"""

import asyncio
import json
import sys

import anyio
from mcp import Client, Implementation, StdioServerParameters

CALLS = [
    ("get_loan", {"amount": 1000, "currency": "EUR"}),  # valid
    ("get_loan", {"amount": "lots", "currency": "EUR"}),  # invalid: a string for an integer
    ("get_loan", {"amount": 500, "currency": "USD"}),  # its correction
    ("getloan", {"amount": 1, "currency": "EUR"}),  # a tool the server does not have
    ("get_loan", {"amount": 1, "currency": "EUR"}),  # its correction
]

OLD_ONLY = ("get_loan", {"amount": 1000, "currency": "EUR"})  # valid before change_loans only: no term_months
NEW_ONLY = ("get_loan", {"amount": 2.5, "currency": "EUR", "term_months": 12})  # valid after it only: a fractional amount
CHANGE_CALLS = [OLD_ONLY, NEW_ONLY, ("change_loans", {}), NEW_ONLY, OLD_ONLY]
CHANGE_AT = 2  # the list_changed is awaited after this call


def outcome(result):
    return {"isError": bool(result.is_error), "text": [c.text for c in result.content if getattr(c, "type", None) == "text"]}


async def call(client, name, arguments):
    try:
        return outcome(await client.call_tool(name, arguments))
    except Exception as error:
        return {"raised": type(error).__name__, "message": str(error)}


async def loans(client):
    return {"results": [await call(client, name, arguments) for name, arguments in CALLS]}


async def change(client):
    results, events = [], []
    async with client.listen(tools_list_changed=True) as subscription:
        for index, (name, arguments) in enumerate(CHANGE_CALLS):
            results.append(await call(client, name, arguments))
            if index == CHANGE_AT:
                with anyio.fail_after(20):
                    events.append(type(await subscription.__anext__()).__name__)
    return {"results": results, "events": events}


async def session(plan):
    target = plan["target"]
    if isinstance(target, dict):
        command = target["command"]
        target = StdioServerParameters(command=command[0], args=command[1:], env=target.get("env"))
    async with Client(target, mode=plan["mode"], client_info=Implementation(name="py-agent", version="2.3.0")) as client:
        list_first = plan.get("list", "first") == "first"
        tools = [tool.name for tool in (await client.list_tools()).tools] if list_first else None
        done = await {"loans": loans, "change": change}[plan.get("script", "loans")](client)
        if not list_first:
            tools = [tool.name for tool in (await client.list_tools()).tools]
        return {"protocolVersion": client.protocol_version, "tools": tools, **done}


async def main():
    plan = json.loads(sys.argv[1])
    at_once = asyncio.Semaphore(3)  # a few stdio servers started at a time: the machine running the tests is small

    async def limited(s):
        if isinstance(s["target"], str):
            return await session(s)
        async with at_once:
            return await session(s)

    done = await asyncio.gather(*(limited(s) for s in plan.values()))
    print(json.dumps(dict(zip(plan.keys(), done))))


asyncio.run(main())
