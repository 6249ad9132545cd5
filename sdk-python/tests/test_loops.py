"""The OpenAI and Anthropic clients (the real packages from PyPI) in the tool loop, against a scripted model on loopback."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anthropic
import openai
import pytest

from toolgate import Toolgate, ToolgateEvent, define_tool
from toolgate.loops import aanthropic_tool_loop, anthropic_tool_loop, aopenai_tool_loop, openai_tool_loop

LOANS_ASKED: list[str] = []


def lookup(args: dict[str, Any]) -> dict[str, Any]:
    LOANS_ASKED.append(args["loannumber"])
    return {"loannumber": args["loannumber"], "balance": 1200}


getloan = define_tool(
    name="getloan",
    description="A loan by its number",
    parameters={
        "type": "object",
        "properties": {"loannumber": {"type": "string", "pattern": "^[0-9]+$"}},
        "required": ["loannumber"],
        "additionalProperties": False,
    },
    handler=lookup,
)


class ScriptedModel:
    """Turn 1 asks for loan 4471 as a number; after the refusal it sends the string Toolgate's message asks for; then it answers."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(body)
        last = body["messages"][-1]
        if path.endswith("/chat/completions"):
            if last["role"] == "user":
                return self.chat(
                    [{"id": "call_1", "type": "function", "function": {"name": "getloan", "arguments": '{"loannumber": 4471}'}}]
                )
            if last["role"] == "tool" and last["tool_call_id"] == "call_1":  # refused: the model writes what the message asks
                return self.chat(
                    [{"id": "call_2", "type": "function", "function": {"name": "getloan", "arguments": '{"loannumber": "4471"}'}}]
                )
            return self.chat(None, "The balance of loan 4471 is 1200.")
        if isinstance(last["content"], str):
            return self.message([{"type": "tool_use", "id": "toolu_1", "name": "getloan", "input": {"loannumber": 4471}}])
        result = last["content"][0]
        if result.get("is_error"):
            return self.message([{"type": "tool_use", "id": "toolu_2", "name": "getloan", "input": {"loannumber": "4471"}}])
        return self.message([{"type": "text", "text": "The balance of loan 4471 is 1200."}], "end_turn")

    @staticmethod
    def chat(tool_calls: list[dict[str, Any]] | None, text: str | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if tool_calls:
            message["tool_calls"] = tool_calls
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_764_900_000,
            "model": "scripted",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 15, "total_tokens": 135},
        }

    @staticmethod
    def message(content: list[dict[str, Any]], stop: str = "tool_use") -> dict[str, Any]:
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "scripted",
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 130, "output_tokens": 16},
        }


@pytest.fixture
def model() -> Iterator[tuple[str, ScriptedModel]]:
    scripted = ScriptedModel()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            data = json.dumps(scripted.answer(self.path, body)).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", scripted
    server.shutdown()
    server.server_close()


def gate() -> tuple[Toolgate, list[ToolgateEvent]]:
    events: list[ToolgateEvent] = []
    return Toolgate(tools=[getloan], model={"provider": "scripted", "name": "scripted"}, on_event=events.append), events


def check_events(events: list[ToolgateEvent]) -> None:
    refused, fixed = events
    assert refused["outcome"]["valid"] is False and refused["outcome"].get("category") == "wrong_type"
    assert fixed["correctsId"] == refused["id"] and fixed["result"]["status"] == "ok"
    assert LOANS_ASKED == ["4471"]  # the invalid call never reached the handler


def test_openai_client_tool_loop(model: tuple[str, ScriptedModel]) -> None:
    url, scripted = model
    LOANS_ASKED.clear()
    toolgate, events = gate()
    messages: list[Any] = [{"role": "user", "content": "Balance of loan 4471?"}]
    client = openai.OpenAI(base_url=url + "/v1", api_key="sk-none", max_retries=0)
    completion = openai_tool_loop(client, toolgate.run(), model="scripted", messages=messages)
    assert completion.choices[0].message.content == "The balance of loan 4471 is 1200."
    assert scripted.requests[0]["tools"] == toolgate.openai_tools()
    refusal = messages[2]
    assert refusal["role"] == "tool" and refusal["tool_call_id"] == "call_1"
    assert refusal["content"] == toolgate.check("getloan", {"loannumber": 4471}).message
    assert events[0]["usage"] == {"inputTokens": 120, "outputTokens": 15}
    check_events(events)


def test_anthropic_client_tool_loop(model: tuple[str, ScriptedModel]) -> None:
    url, scripted = model
    LOANS_ASKED.clear()
    toolgate, events = gate()
    messages: list[Any] = [{"role": "user", "content": "Balance of loan 4471?"}]
    client = anthropic.Anthropic(base_url=url, api_key="sk-none", max_retries=0)
    final = anthropic_tool_loop(client, toolgate.run(), model="scripted", max_tokens=500, messages=messages)
    assert final.content[0].text == "The balance of loan 4471 is 1200."
    assert scripted.requests[0]["tools"] == toolgate.anthropic_tools()
    [result] = messages[2]["content"]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_1" and result["is_error"] is True
    assert events[0]["usage"] == {"inputTokens": 130, "outputTokens": 16}
    check_events(events)


def test_the_async_clients_tool_loops(model: tuple[str, ScriptedModel]) -> None:
    url, _ = model

    async def both() -> None:
        LOANS_ASKED.clear()
        toolgate, events = gate()
        client = openai.AsyncOpenAI(base_url=url + "/v1", api_key="sk-none", max_retries=0)
        await aopenai_tool_loop(client, toolgate.run(), model="scripted", messages=[{"role": "user", "content": "?"}])
        check_events(events)
        LOANS_ASKED.clear()
        toolgate, events = gate()
        aclient = anthropic.AsyncAnthropic(base_url=url, api_key="sk-none", max_retries=0)
        await aanthropic_tool_loop(aclient, toolgate.run(), model="scripted", max_tokens=500, messages=[{"role": "user", "content": "?"}])
        check_events(events)

    asyncio.run(both())


def test_openai_agents_sdk_function_tools(model: tuple[str, ScriptedModel]) -> None:
    """The Agents SDK (the real package) runs an agent whose model is the scripted one, over Chat Completions on loopback."""
    import agents

    from toolgate.agents_sdk import function_tools

    url, scripted = model
    LOANS_ASKED.clear()
    agents.set_tracing_disabled(True)  # no trace export: nothing leaves loopback
    toolgate, events = gate()
    run = toolgate.run()
    llm = agents.OpenAIChatCompletionsModel("scripted", openai.AsyncOpenAI(base_url=url + "/v1", api_key="sk-none", max_retries=0))
    agent = agents.Agent(name="loans", instructions="Answer loan questions.", tools=function_tools(run), model=llm)
    result = agents.Runner.run_sync(agent, "Balance of loan 4471?")
    assert result.final_output == "The balance of loan 4471 is 1200."
    assert scripted.requests[0]["tools"][0]["function"]["parameters"] == toolgate.tools.by_name["getloan"].parameters
    refusal = next(m for m in scripted.requests[1]["messages"] if m["role"] == "tool")
    assert refusal["tool_call_id"] == "call_1" and refusal["content"] == toolgate.check("getloan", {"loannumber": 4471}).message
    check_events(events)


def test_langchain_tools_with_a_scripted_chat_model() -> None:
    """langchain-core's own fake chat model plays the script; the real StructuredTool runs the calls."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    from toolgate.langchain import langchain_tools

    LOANS_ASKED.clear()
    toolgate, events = gate()
    [tool] = langchain_tools(toolgate.run())
    assert tool.name == "getloan" and tool.args_schema == toolgate.tools.by_name["getloan"].parameters
    script = iter(
        [
            AIMessage(content="", tool_calls=[{"name": "getloan", "args": {"loannumber": 4471}, "id": "call_1"}]),
            AIMessage(content="", tool_calls=[{"name": "getloan", "args": {"loannumber": "4471"}, "id": "call_2"}]),
        ]
    )
    llm = GenericFakeChatModel(messages=script)
    messages: list[Any] = [HumanMessage("Balance of loan 4471?")]
    replies: list[ToolMessage] = []
    for _ in range(2):
        ai = llm.invoke(messages)
        messages.append(ai)
        for call in ai.tool_calls:
            reply = tool.invoke({**call, "type": "tool_call"})
            replies.append(reply)
            messages.append(reply)
    assert replies[0].tool_call_id == "call_1" and replies[0].content == toolgate.check("getloan", {"loannumber": 4471}).message
    assert json.loads(str(replies[1].content)) == {"loannumber": "4471", "balance": 1200}
    check_events(events)


def test_pydantic_ai_tools_with_a_scripted_function_model() -> None:
    """Pydantic AI's own FunctionModel plays the script; the real Agent runs the tool calls."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from toolgate.pydantic_ai import pydantic_ai_tools

    returned: list[ToolReturnPart] = []

    def scripted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        assert [t.parameters_json_schema for t in info.function_tools] == [toolgate.tools.by_name["getloan"].parameters]
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        returned[:] = returns
        if not returns:
            return ModelResponse(parts=[ToolCallPart("getloan", {"loannumber": 4471}, tool_call_id="call_1")])
        if len(returns) == 1:
            return ModelResponse(parts=[ToolCallPart("getloan", {"loannumber": "4471"}, tool_call_id="call_2")])
        return ModelResponse(parts=[TextPart("The balance of loan 4471 is 1200.")])

    LOANS_ASKED.clear()
    toolgate, events = gate()
    agent = Agent(FunctionModel(scripted), tools=pydantic_ai_tools(toolgate.run()))
    result = agent.run_sync("Balance of loan 4471?")
    assert result.output == "The balance of loan 4471 is 1200."
    assert returned[0].tool_call_id == "call_1" and returned[0].content == toolgate.check("getloan", {"loannumber": 4471}).message
    check_events(events)
