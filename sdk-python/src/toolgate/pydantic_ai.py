"""The dispatcher's tools as Pydantic AI tools (``pip install pydantic-ai-slim``).

Each tool becomes ``pydantic_ai.Tool.from_schema`` with the tool's own JSON Schema (Pydantic AI then
skips its own validation of the arguments); its calls go through ``run``, so an invalid call answers the
classifier's message to the model instead of running the handler::

    agent = Agent(model, tools=pydantic_ai_tools(toolgate.run()))

Arguments that are not JSON at all are refused by Pydantic AI before a tool is called (its own retry).
"""

from __future__ import annotations

from typing import Any

from .dispatcher import Run


def pydantic_ai_tools(run: Run) -> list[Any]:
    """One ``pydantic_ai.Tool`` per tool of the run's dispatcher."""
    from pydantic_ai import Tool

    def invoker(name: str) -> Any:
        async def invoke(context: Any, **arguments: Any) -> str:
            call = {"name": name, "arguments": arguments, "id": str(getattr(context, "tool_call_id", None) or "")}
            [outcome] = await run.dispatch(call)
            return outcome.content

        return invoke

    return [
        Tool.from_schema(invoker(tool.name), name=tool.name, description=tool.description, json_schema=tool.parameters, takes_ctx=True)
        for tool in run.gate.tools.by_name.values()
    ]
