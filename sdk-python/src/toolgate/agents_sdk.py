"""The dispatcher's tools as OpenAI Agents SDK function tools (``pip install openai-agents``).

Each tool becomes a ``FunctionTool`` whose invocation goes through ``run``: the arguments the model wrote
(the raw JSON text) are checked by the classifier, an invalid call answers the classifier's message to
the model instead of running the handler, and every call is recorded::

    agent = Agent(name="loans", tools=function_tools(toolgate.run()), model=...)

The schemas are passed as they are (``strict_json_schema=False``): the model sees the tool's own schema,
and Toolgate judges its calls against that same schema.
"""

from __future__ import annotations

from typing import Any

from .dispatcher import Run


def function_tools(run: Run) -> list[Any]:
    """One ``agents.FunctionTool`` per tool of the run's dispatcher."""
    from agents import FunctionTool

    def invoker(name: str) -> Any:
        async def invoke(context: Any, input_json: str) -> str:
            [outcome] = await run.dispatch({"name": name, "arguments": input_json, "id": str(getattr(context, "tool_call_id", ""))})
            return outcome.content

        return invoke

    return [
        FunctionTool(
            name=tool.name,
            description=tool.description or "",
            params_json_schema=tool.parameters,
            on_invoke_tool=invoker(tool.name),
            strict_json_schema=False,
        )
        for tool in run.gate.tools.by_name.values()
    ]
