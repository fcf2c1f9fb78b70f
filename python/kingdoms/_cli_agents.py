"""Agents named on the command line: the built-in forms (`ismcts:2000`) and your own Python
agents (`mybot:HighestCard`), shared by `kingdoms tournament`, `play` and `selfplay`."""

from __future__ import annotations

import importlib
import os
import re
import shlex
import shutil
import sys
from typing import Any

from kingdoms._kingdoms import KingdomsError, parse_agent
from kingdoms._subprocess import Subprocess
from kingdoms.agents import AgentLike

AGENT_HELP = (
    "Agents: random, heuristic, greedy, greedy:samples=N, ismcts (1000 iterations), ismcts:N, "
    "ismcts:time=SECONDS, and ismcts:N,KEY=VALUE,... with KEY one of c, depth (a number or "
    "none), expand, widening (a number or none), settle=1, prior, pv, seed; or your own Python "
    "agent as MODULE:NAME (MODULE is imported from the working directory or sys.path; NAME is "
    "a class, called without arguments, or an object with act(game) -> action and optionally "
    "a name attribute); or a bot program as cmd:COMMAND (e.g. 'cmd:./mybot --fast', split as a "
    "shell would; cmd,time=S:COMMAND sets its time limit per move, default 10 s), speaking the "
    "JSON-lines protocol of docs/bots.md"
)
#: The --agents argument's help (the grammar itself is in the command's description).
AGENTS_ARGUMENT_HELP = "the agents, in the forms the description lists"

_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


class AgentSpecError(KingdomsError):
    """An agent named on the command line could not be built."""


def _is_builtin(head: str) -> bool:
    try:
        parse_agent(head)
    except (KingdomsError, ValueError):
        return False
    return True


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def load_python_agent(spec: str) -> Any:
    """`MODULE:NAME` -> the agent: `NAME` from `MODULE` (a class is instantiated without
    arguments). The working directory is searched after sys.path, as a script's folder is."""
    module_name, _, attr = spec.partition(":")
    if not _MODULE.fullmatch(module_name) or not attr.isidentifier():
        raise AgentSpecError(
            f"agent {_short(spec)!r}: not a built-in agent, nor MODULE:NAME of a Python agent"
        )
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise AgentSpecError(f"agent {_short(spec)!r}: cannot import {module_name}: {e}") from e
    target = getattr(module, attr, None)
    if target is None:
        raise AgentSpecError(f"agent {_short(spec)!r}: module {module_name} has no {attr}")
    agent = target() if isinstance(target, type) else target
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(
            f"agent {_short(spec)!r}: {attr} has no act(game) method "
            "(see the agent protocol in docs/agents.md)"
        )
    return agent


def load_bot(spec: str) -> Subprocess:
    """`cmd:COMMAND` or `cmd,time=SECONDS:COMMAND` -> the out-of-process bot."""
    head, _, command = spec.partition(":")
    settings = head.split(",")[1:]
    time_limit = 10.0
    for setting in settings:
        key, _, value = setting.partition("=")
        try:
            if key.strip() != "time":
                raise ValueError
            time_limit = float(value)
        except ValueError:
            raise AgentSpecError(
                f"agent {_short(spec)!r}: cmd takes only time=SECONDS, as cmd,time=2:COMMAND"
            ) from None
    try:
        args = shlex.split(command)
    except ValueError as e:
        raise AgentSpecError(f"agent {_short(spec)!r}: {e}") from None
    if not args:
        raise AgentSpecError(f"agent {_short(spec)!r}: cmd: needs a command")
    program = args[0]
    if shutil.which(program) is None:
        raise AgentSpecError(f"agent {_short(spec)!r}: no program {_short(program)!r} to run")
    return Subprocess(args, time_limit=time_limit)


def load_agent(spec: str) -> AgentLike:
    """A built-in agent from its command-line form, `MODULE:NAME` for a Python agent, or
    `cmd:COMMAND` for a bot program."""
    head = spec.partition(":")[0]
    if head.split(",")[0].strip() == "cmd":
        return load_bot(spec)
    if ":" in spec and not _is_builtin(head):
        agent: AgentLike = load_python_agent(spec)
        return agent
    return parse_agent(spec)


def agent_name(agent: AgentLike, spec: str) -> str:
    """How tables and messages name an agent: its `name`, else the command-line form."""
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else spec
