"""The dispatcher's tools as LangChain tools (``pip install langchain-core``).

Each tool becomes a ``StructuredTool`` with the tool's own JSON Schema as its ``args_schema``; its calls go
through ``run``, so an invalid call answers the classifier's message (as the tool's output, which
LangChain puts in the ``ToolMessage`` the model reads) instead of running the handler::

    tools = langchain_tools(toolgate.run())
    model = ChatOpenAI(...).bind_tools(tools)
"""

from __future__ import annotations

from typing import Any

from .dispatcher import Run


def langchain_tools(run: Run) -> list[Any]:
    """One ``langchain_core.tools.StructuredTool`` per tool of the run's dispatcher."""
    from langchain_core.tools import StructuredTool

    def functions(name: str) -> tuple[Any, Any]:
        async def coroutine(**arguments: Any) -> str:
            [outcome] = await run.dispatch({"name": name, "arguments": arguments})
            return outcome.content

        def function(**arguments: Any) -> str:
            [outcome] = run.dispatch_sync({"name": name, "arguments": arguments})
            return outcome.content

        return function, coroutine

    out = []
    for tool in run.gate.tools.by_name.values():
        function, coroutine = functions(tool.name)
        out.append(
            StructuredTool.from_function(
                func=function,
                coroutine=coroutine,
                name=tool.name,
                description=tool.description or tool.name,
                args_schema=tool.parameters,
                infer_schema=False,
            )
        )
    return out
