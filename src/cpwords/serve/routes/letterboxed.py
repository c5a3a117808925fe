"""Letter Boxed: the page (solve, hints, counts, a player's answer checked), box generation,
and the JSON answer."""

from __future__ import annotations

import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

import cpwords
from cpwords.core.errors import CpwordsError, InputError
from cpwords.core.rows import check_row, result_row
from cpwords.letterboxed.draw import box_svg
from cpwords.letterboxed.models.design import DIFFICULTY_BANDS
from cpwords.serve import views
from cpwords.serve.messages import page_error
from cpwords.serve.routes.common import Web, fields, route

#: The Letter Boxed page's default dictionary (the CLI's: the 100,000 most common words of
#: wamerican, or of web2 where wamerican is not installed; no proper nouns).
LB_DEFAULT_DICT = "english:100000"

#: The difficulty choices of the page: the API's bands, or any.
DIFFICULTIES: tuple[str, ...] = ("any", *DIFFICULTY_BANDS)


def routes(web: Web) -> list[Route]:
    """The Letter Boxed page, its generator and its JSON answer."""
    return [
        route("/letterboxed", letterboxed, web),
        route("/letterboxed/generate", letterboxed_generate, web, methods=["POST"]),
        route("/api/letterboxed", api_letterboxed, web),
    ]


async def letterboxed(web: Web, request: Request) -> Response:
    """The page: the form, or the box solved and drawn (``?box=...``)."""
    q = request.query_params
    text = q.get("box", "").strip()
    ctx: dict[str, Any] = _lb_context(q) | {"box_text": text}
    if not text:
        return web.page(request, "letterboxed.html", **ctx)
    try:
        name = views.check_dictionary(ctx["dict"])
        solver = await run_in_threadpool(_lb_solver, web, name)
        if "from" in q:  # the player's words so far: where they stand, the answer kept hidden
            return await _letterboxed_from(web, request, solver, ctx, _lang(name))
        ctx |= await run_in_threadpool(_letterboxed_view, solver, text, q, _lang(name))
        if "check" in q:  # a player's answer: its verdict, drawn, the solution kept hidden
            checked = await run_in_threadpool(check_answer, solver, text, q["check"], name)
            ctx |= {"checked": checked, "check_text": q["check"]}
            ctx["svg"] = _answer_svg(ctx["box"], checked["solution"])
    except CpwordsError as exc:
        return web.page(request, "letterboxed.html", code=400, error=page_error(exc), **ctx)
    return web.page(request, "letterboxed.html", **ctx)


async def _letterboxed_from(
    web: Web, request: Request, solver: Any, ctx: dict[str, Any], lang: str
) -> Response:
    """The page from where the player stands (``?box=BOX&from=PLAYS[&hint=N|&finish=1]``):
    the box with the plays drawn, whether it is still solvable and in how few more words,
    the graded hint or the finish, as ``cpwords letterboxed BOX --from PLAYS [--hint N]``
    says them (:func:`position_view`); the box's own answer is not shown.

    An error (a play that breaks a rule, a hint level not 1, 2 or 3) is the page's line, the
    box drawn bare."""
    from cpwords.letterboxed.rules import parse_box

    q = request.query_params
    solve_q = {k: v for k, v in q.items() if k != "hint"}  # here hint is a level, not a mode
    ctx |= await run_in_threadpool(_letterboxed_view, solver, ctx["box_text"], solve_q, lang)
    ctx |= {"from_text": q["from"], "position": None}
    ctx["svg"] = box_svg(parse_box(ctx["box"]), [])
    try:
        ctx |= await run_in_threadpool(position_view, solver, ctx["box"], q, lang)
    except CpwordsError as exc:
        return web.page(request, "letterboxed.html", code=400, error=page_error(exc), **ctx)
    return web.page(request, "letterboxed.html", **ctx)


def position_view(solver: Any, box_text: str, q: Any, lang: str = "en") -> dict[str, Any]:
    """Where the player stands, for the page: :func:`help_row` (the command line's ``--from
    PLAYS [--hint N] --json`` object) and its lines as the command prints them.

    Parameters
    ----------
    solver : LetterBoxedSolver
        The dictionary's indexed solver.
    box_text : str
        The box.
    q : mapping
        ``from`` (the plays, as typed), ``hint`` (a level, 1 to 3) or ``finish`` (``1``: show
        the finish and draw it; else only whether the box is still solvable and in how few
        more words).
    lang : str
        The language whose case rules read the plays.

    Returns
    -------
    dict
        ``position`` (the row), ``position_lines`` (the command's lines,
        :func:`~cpwords.letterboxed.spec.position_lines`, the finish and its score left out
        unless shown), ``level`` (the hint's, or None), ``finish_shown`` and ``svg`` (the
        plays drawn, and the finish when shown).

    Raises
    ------
    InputError
        As :func:`help_row`.
    """
    from cpwords.letterboxed.spec import position_lines

    shown = not q.get("hint") and q.get("finish") == "1"
    row = help_row(solver, box_text, q, lang, finish=shown)
    svg = row.pop("svg")
    lines = [(k, v) for k, v in position_lines(row) if shown or k not in ("finish", "score")]
    level = row["hint"]["level"] if "hint" in row else None
    return {
        "position": row,
        "position_lines": lines,
        "level": level,
        "finish_shown": shown,
        "svg": svg,
    }


def _answer_svg(box_text: str, words: list[str]) -> str:
    """The box with a player's words drawn, or bare when a word has a letter off the box."""
    from cpwords.letterboxed.rules import parse_box

    box = parse_box(box_text)
    on_box = all(set(w) <= set(box.letters) for w in words)
    return box_svg(box, words if on_box else [], note="your answer")


async def letterboxed_generate(web: Web, request: Request) -> Response:
    """Generate a box and redirect to its page in hint mode, the puzzle without its answer (or
    say why none was found).

    POST only (the page's form): a generation runs up to 20 s, which no other site's page may
    start.
    """
    ctx: dict[str, Any] = _lb_context({}) | {"box_text": ""}
    try:
        q = await fields(request)
        ctx = _lb_context(q) | {"box_text": ""}
        seed, min_playable, unique, level = _generate_options(q)
        name = views.check_dictionary(ctx["dict"])
        solver = await run_in_threadpool(_lb_solver, web, name)
        async with web.busy.hold():
            found = await run_in_threadpool(
                _generate_box,
                solver,
                seed,
                unique,
                min_playable,
                None if level == "any" else level,
                _lang(name),
            )
    except CpwordsError as exc:
        return web.page(request, "letterboxed.html", code=400, error=page_error(exc), **ctx)
    if isinstance(found, str):
        return web.page(request, "letterboxed.html", code=200, error=found, **ctx)
    box, used, score = found
    # A new box is a puzzle to play: shown in hint mode (no word drawn), its answer a click away.
    url = f"/letterboxed?box={box}&generated={used}&difficulty={score}&dict={ctx['dict']}"
    url += "&hint=1&reveal=0"
    return RedirectResponse(url, status_code=303)


async def api_letterboxed(web: Web, request: Request) -> Response:
    """The solved box as JSON, keyed as the command line keys it.

    ``?box=BOX&dict=NAME``: the keys of ``cpwords letterboxed BOX --all --max-words 2 --json``,
    plus the drawing (``svg``); with ``check=WORD WORD``, the answer checked, keyed as
    ``--check-text ANSWER --json`` keys it (no solve); with ``from=WORD,WORD`` and/or
    ``hint=1|2|3``, help from where the player stands, keyed as ``--from PLAYS [--hint N]
    --json`` keys it (plus the plays drawn)."""
    q = request.query_params
    text = q.get("box", "")
    name = q.get("dict") or LB_DEFAULT_DICT
    try:
        solver = await run_in_threadpool(_lb_solver, web, views.check_dictionary(name))
        if "check" in q:
            row = await run_in_threadpool(check_answer, solver, text, q["check"], name)
            return JSONResponse(row)
        if "from" in q or "hint" in q:
            row = await run_in_threadpool(help_row, solver, text, q, _lang(name))
            return JSONResponse(row)
        view = await run_in_threadpool(_letterboxed_view, solver, text, {}, _lang(name))
    except CpwordsError as exc:
        return JSONResponse({"error": page_error(exc)}, status_code=400)
    return JSONResponse(view["row"] | {"svg": view["svg"]})


def check_answer(solver: Any, box_text: str, answer: str, name: str) -> dict[str, Any]:
    """A player's answer, checked as the command line checks it.

    As ``cpwords letterboxed BOX --check-text ANSWER --json``: the same checker
    (:func:`cpwords.letterboxed.rules.letterboxed_problems`, every word in the dictionary), the
    same keys (``valid``, ``problems``, ``solution``, ``objective``, then ``box``,
    ``num_words``, ``num_letters``, ``lexicon``).

    Raises
    ------
    InputError
        The box is malformed (the command line's line).
    """
    from cpwords.letterboxed.rules import (
        letterboxed_problems,
        objective_value,
        parse_box,
        score,
        split_solution,
    )

    if not box_text.strip():
        raise InputError("give the box, like abc-def-ghi-jkl or abc def ghi jkl")
    box = parse_box(box_text)
    words = split_solution(answer, _lang(name))
    problems = letterboxed_problems(box, words, solver.lexicon.as_set())
    n_words, n_letters = score(words)
    return check_row(
        not problems,
        problems,
        words,
        objective_value(words) if words else None,
        box=str(box),
        num_words=n_words,
        num_letters=n_letters,
        lexicon=solver.source,
    )


def help_row(
    solver: Any, box_text: str, q: Any, lang: str = "en", *, finish: bool = True
) -> dict[str, Any]:
    """Help from where the player stands, as ``cpwords letterboxed BOX --from PLAYS [--hint N]
    --json`` answers (:func:`cpwords.letterboxed.spec.continue_row`), with the plays drawn
    (``svg``; the finish too when ``finish`` and it is not a hint).

    Raises
    ------
    InputError
        The box is malformed, a play breaks a rule, a hint level is not 1, 2 or 3 (the command
        line's line).
    """
    from cpwords.letterboxed.rules import parse_box
    from cpwords.letterboxed.spec import continue_box, continue_row, hint_box

    if not box_text.strip():
        raise InputError("give the box, like abc-def-ghi-jkl or abc def ghi jkl")
    box = parse_box(box_text)
    plays = q.get("from", "")
    hint = None
    if q.get("hint"):
        hint = hint_box(box, plays, _int(q["hint"], "hint", 1), solver, lang=lang)
        res = hint.result
    else:
        res = continue_box(box, plays, solver, lang=lang)
    row = continue_row(res, solver, hint, lang=lang)
    drawn = list(row["plays"]) + (list(row["solution"] or []) if finish else [])
    return row | {"svg": box_svg(box, drawn, note=res.status.value)}


def _lang(name: str) -> str:
    """The language whose casing rules read words of dictionary ``name`` (``dict:fr``: fr)."""
    return name.split(":", 1)[1] if name.startswith("dict:") else "en"


def _lb_solver(web: Web, name: str) -> Any:
    """The indexed solver of dictionary ``name`` (the default one is kept apart)."""
    if name == LB_DEFAULT_DICT:
        return web.lb.solver()
    return web.lexicons.get("letterboxed", name, cpwords.LetterBoxedSolver)


def _lb_context(q: Any) -> dict[str, Any]:
    """What every Letter Boxed page shows: the title, the dictionary and difficulty choices."""
    return {
        "title": "Letter Boxed",
        "dict": q.get("dict") or LB_DEFAULT_DICT,
        "dicts": views.dictionary_choices(),
        "difficulties": list(DIFFICULTIES),
        "difficulty": q.get("difficulty") if q.get("difficulty") in DIFFICULTIES else "any",
    }


def _generate_options(q: Any) -> tuple[int, int, bool, str]:
    """The generator's query: seed (default: from the clock), min_playable, unique, difficulty."""
    seed = _int(q.get("seed") or str(int(time.time()) % 100_000), "seed", 0)
    min_playable = _int(q.get("min_playable") or "0", "min_playable", 0)
    unique = q.get("unique") in ("1", "on", "true")
    level = q.get("difficulty") or "any"
    if level not in DIFFICULTIES:
        raise InputError(f"unknown difficulty {level!r}: choose from {', '.join(DIFFICULTIES)}")
    return seed, min_playable, unique, level


def _generate_box(
    solver: Any,
    seed: int,
    unique: bool,
    min_playable: int,
    difficulty: str | None,
    lang: str = "en",
) -> tuple[str, int, float] | str:
    """A generated box of the difficulty (box, the seed, its score), or why there is none.

    One :func:`cpwords.generate_boxes` call with the difficulty band (the CLI's
    ``--generate 1 --difficulty``), for at most 20 s; the blocklist is ``lang``'s.
    """
    from cpwords.core.blocklist import load_blocklist

    gen = cpwords.generate_boxes(
        1,
        solver,
        seed=seed,
        unique=unique,
        min_playable=min_playable,
        max_draws=20_000,
        time_limit=20.0,
        blocklist=load_blocklist(None, enabled=True, lang=lang),
        difficulty=difficulty,
    )
    if gen.boxes:
        b = gen.boxes[0]
        return str(b.box), seed, b.difficulty.score
    return (
        f"no box met the demands within the 20 s limit ({gen.draws:,} drawn from seed {seed}): "
        "relax them or retry"
    )


def _int(text: str, name: str, low: int) -> int:
    """The whole number ``text`` (at least ``low``), or the one-line error naming ``name``."""
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{name} must be a whole number, got {text!r}") from None
    if value < low:
        raise InputError(f"{name} must be at least {low}, got {value}")
    return value


def _letterboxed_view(solver: Any, text: str, q: Any, lang: str = "en") -> dict[str, Any]:
    """Solve and draw one box: everything the page and the JSON API show (``row``: the
    command line's JSON object)."""
    from cpwords.letterboxed.rules import parse_box

    if not text.strip():
        raise InputError("give the box, like abc-def-ghi-jkl or abc def ghi jkl")
    parsed = parse_box(text)
    res = cpwords.solve_letterboxed(parsed, solver, all_solutions=True)
    optimal = [list(s) for s in res.solver_info.get("optimal_solutions", [])]
    pick = _int(q.get("pick", "0") or "0", "pick", 0) if q else 0
    if optimal and pick >= len(optimal):
        raise InputError(f"pick must be below {len(optimal)}, got {pick}")
    chain = optimal[pick] if optimal else list(res.solution or [])
    hint = bool(q) and q.get("hint") in ("1", "on", "true")
    reveal = _int(q.get("reveal", "0") or "0", "reveal", 0) if hint else None
    if reveal is not None:
        reveal = min(reveal, len(chain))
    words = res.solver_info.get("words")
    # Counts up to 2 words cost a few ms; 3-word counts (boxes whose optimum is 3 words) take
    # 0.1-0.2 s, so they are asked for with count=3 (a link on the page).
    count_to = _int(q.get("count", "2") or "2", "count", 1) if q else 2
    if count_to > 3:
        raise InputError(f"count must be at most 3, got {count_to}")
    count = solver.count(parsed, max_words=min(int(words), count_to)) if words else None
    counts = None if count is None else {str(j + 1): n for j, n in enumerate(count.by_words)}
    nxt = None
    if reveal is not None and reveal < len(chain):
        w = chain[reveal]
        nxt = {"length": len(w), "first": w[0].upper()}
    return {
        "box": str(parsed),
        "sides": [s.upper() for s in parsed.sides],
        "status": res.status.value,
        "proven": res.status is cpwords.Status.OPTIMAL,
        "solution": chain,
        "words": words,
        "letters": res.solver_info.get("letters"),
        "optimal": optimal,
        "n_optimal": len(optimal),
        "pick": pick,
        "counts": counts,
        "count_more": words is not None and int(words) > count_to,
        "playable": res.solver_info.get("playable_words"),
        "lexicon": solver.source,
        "wall_time": res.wall_time,
        "hint": hint,
        "reveal": reveal,
        "next": nxt,
        "svg": box_svg(parsed, chain, reveal=reveal),
        "reason": res.solver_info.get("reason"),
        "row": _cli_row(res, solver, parsed, count, lang),
    }


def _cli_row(res: Any, solver: Any, box: Any, count: Any, lang: str) -> dict[str, Any]:
    """The solve as ``cpwords letterboxed BOX --all --max-words K --json`` writes it: the
    :data:`~cpwords.core.rows.RESULT_KEYS` first (:func:`~cpwords.core.rows.result_row`, the
    command line's own), then the command's own keys, in its order."""
    from cpwords.letterboxed.rules import score

    info = res.solver_info
    row = {k: v for k, v in res.to_dict().items() if k not in ("solver_info", "trace")}
    n_words, n_letters = score(res.solution) if res.solution else (None, None)
    row |= {
        "interrupted": False,
        "stopped": None,  # the page's exact solve has no time limit
        "num_words": n_words,
        "num_letters": n_letters,
        "box": str(box),
        "lexicon": solver.source,
        "lexicon_size": len(solver.lexicon),
        "lexicon_size_3plus": solver.size,
        "lang": lang,
        "fold_accents": False,
        "playable_words": info.get("playable_words"),
    }
    if "reason" in info:
        row["reason"] = info["reason"]
    row["n_optimal"] = len(info.get("optimal_solutions", []))
    row["optimal_solutions"] = [list(s) for s in info.get("optimal_solutions", [])]
    row["counts"] = None
    if count is not None:
        row |= {
            "max_words": count.max_words,
            "counts": {str(j + 1): c for j, c in enumerate(count.by_words)},
            "count_total": count.total,
            "count_wall_time": count.wall_time,
        }
    return result_row(row)
