"""The loan assistant in Python: a scripted model (no network) asks for loans with the usual mistakes,
reads Toolgate's messages and corrects them; every call is reported to the Toolgate at TOOLGATE_URL
(default http://localhost:3000) with TOOLGATE_API_KEY (a key with the ingest scope).

    pip install toolgate-monitor   # or: scripts/test-python.sh --install, then its virtualenv's python
    TOOLGATE_API_KEY=tg_... python examples/loan-assistant-python/run.py

50 tasks of 6 successful calls each; 19 of the model's 319 requests are invalid: an invalid rate of
6.0 %, so 1 / (1 - 0.06) = 1.064 attempts per successful call and 6.38 attempts per 6-call task
(docs/attempt-inflation.md). After the run, the overview shows those figures and the calls page
each refusal with its correction.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Literal

from toolgate import CallOutcome, ReporterError, Toolgate, define_tool, tool

LOANS: dict[str, dict[str, Any]] = {
    "4471": {"holder": "A. Jansen", "customer": "c-101", "balance": 182_400, "rate": 3.9, "status": "open"},
    "8812": {"holder": "M. de Vries", "customer": "c-102", "balance": 96_250, "rate": 4.2, "status": "open"},
    "5530": {"holder": "A. Jansen", "customer": "c-101", "balance": 0, "rate": 3.1, "status": "closed"},
}

getloan = define_tool(
    name="getloan",
    description="A loan's holder, balance and rate.",
    parameters={
        "type": "object",
        "properties": {"loannumber": {"type": "string", "pattern": "^[0-9]+$", "description": "digits only, e.g. 4471"}},
        "required": ["loannumber"],
        "additionalProperties": False,
    },
    handler=lambda args: {"loannumber": args["loannumber"], **LOANS[args["loannumber"]]},
)


@tool
def listopenloans(customer: str, status: Literal["open", "closed"] = "open") -> list[str]:
    """The loan numbers of a customer's loans with this status."""
    return [number for number, loan in LOANS.items() if loan["customer"] == customer and loan["status"] == status]


Call = tuple[str, dict[str, Any] | str]
GOOD: list[Call] = [
    ("listopenloans", {"customer": "c-101"}),
    ("getloan", {"loannumber": "4471"}),
    ("listopenloans", {"customer": "c-102", "status": "open"}),
    ("getloan", {"loannumber": "8812"}),
    ("listopenloans", {"customer": "c-101", "status": "closed"}),
    ("getloan", {"loannumber": "5530"}),
]
#: The model's usual mistakes, each with the correction a model makes after reading Toolgate's message.
MISTAKES: list[tuple[Call, Call]] = [
    (("getloan", '{"loannumber": 4471}'), ("getloan", {"loannumber": "4471"})),  # a number for a digit string
    (("listopenloans", {"customer": "c-101", "status": "pending"}), ("listopenloans", {"customer": "c-101"})),  # not in the enum
    (("get_loan", {"loannumber": "8812"}), ("getloan", {"loannumber": "8812"})),  # an unknown tool: "Did you mean 'getloan'?"
    (("listopenloans", {"status": "open"}), ("listopenloans", {"customer": "c-102"})),  # a missing argument
]
TASKS, CALLS_PER_TASK, INVALID = 50, 6, 19


def message(provider: Literal["openai", "anthropic"], calls: list[Call], turn: int) -> dict[str, Any]:
    """One assistant turn in the provider's shape."""
    if provider == "openai":
        tool_calls = [
            {"id": f"call_{turn}_{i}", "type": "function", "function": {"name": n, "arguments": a if isinstance(a, str) else json.dumps(a)}}
            for i, (n, a) in enumerate(calls)
        ]
        return {"role": "assistant", "content": None, "tool_calls": tool_calls}
    blocks = [
        {"type": "tool_use", "id": f"toolu_{turn}_{i}", "name": n, "input": a if isinstance(a, dict) else json.loads(a)}
        for i, (n, a) in enumerate(calls)
    ]
    return {"role": "assistant", "content": [{"type": "text", "text": "Looking that up."}, *blocks]}


def main() -> int:
    url = os.environ.get("TOOLGATE_URL", "http://localhost:3000")
    api_key = os.environ.get("TOOLGATE_API_KEY")
    if not api_key:
        print(
            "Set TOOLGATE_API_KEY to a project API key (npm run toolgate -- keys create --project default --name loan-assistant).",
            file=sys.stderr,
        )
        return 2
    errors: list[ReporterError] = []
    toolgate = Toolgate(
        url=url,
        api_key=api_key,
        model={"provider": "scripted", "name": "loan-assistant-model", "version": "2026-12"},
        tools=[getloan, listopenloans],
        timeout_ms=5000,
        reporter={"on_error": errors.append},
    )
    outcomes: list[CallOutcome] = []
    started = int(time.time())
    mistakes_left = INVALID
    for task in range(TASKS):
        provider: Literal["openai", "anthropic"] = "openai" if task % 2 == 0 else "anthropic"
        run = toolgate.run(run_id=f"loan-assistant-py-{started}-{task}", metadata={"example": "loan-assistant-python"})
        for step, good in enumerate(GOOD):
            # 19 mistakes spread over the 300 calls, the first at the first call
            position = task * CALLS_PER_TASK + step
            wrong: Call | None = None
            if mistakes_left > 0 and position % 16 == 0:
                wrong, fixed = MISTAKES[(INVALID - mistakes_left) % len(MISTAKES)]
                mistakes_left -= 1
            for attempt, call in enumerate([wrong, fixed] if wrong else [good]):
                usage = {"input_tokens": 240 + 30 * step, "output_tokens": 20}
                [outcome] = run.dispatch_sync(message(provider, [call], position * 2 + attempt), usage=usage)
                outcomes.append(outcome)
                mark = {"ok": "ok     ", "invalid": "refused", "error": "error  "}[outcome.status]
                print(f"  {mark} {outcome.call.tool}: {outcome.content[:110]}")
    stats = toolgate.shutdown(10_000)
    refused = sum(1 for o in outcomes if o.status == "invalid")
    successes = len(outcomes) - refused
    rate = refused / len(outcomes)
    print(
        f"\n{len(outcomes)} tool calls, {refused} refused and corrected: invalid rate {rate:.1%}, "
        f"{len(outcomes) / successes:.3f} attempts per successful call, {CALLS_PER_TASK * len(outcomes) / successes:.2f} attempts per "
        f"{CALLS_PER_TASK}-call task (expected 1 / (1 - p) = {1 / (1 - rate):.3f}). Sent to {url}: {stats}"
    )
    for error in errors:
        print(f"reporter: {error.message}", file=sys.stderr)
    return 0 if stats is not None and stats.sent == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
