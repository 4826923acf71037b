"""Terminal play (issue 2, item 8): scripted sessions through the command loop, wrong input,
save/load, and the `typhoon play` command."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from typhoon.cli import main
from typhoon.game import Game
from typhoon.games.bfm.notation import position_from_text
from typhoon.games.bfm.terminal import BfmSession
from typhoon.players import LEVELS, Player, RandomPlayer, make_player
from typhoon.record import Record
from typhoon.tui.session import Session, make_session

ESC = "\x1b"


def run_session(
    commands: Sequence[str],
    game: Game | None = None,
    controllers: Mapping[int, Player | None] | None = None,
    *,
    color: bool = False,
    automap: str = "phase",
) -> tuple[Session, str, int]:
    """Run a whole session on a script; returns the session, everything it wrote, its status."""
    out = io.StringIO()
    s = make_session(
        game or Game(seed=5),
        controllers if controllers is not None else {0: None, 1: None},
        out=out,
        color=color,
        automap=automap,
    )
    assert isinstance(s, BfmSession)  # the game's kit names its terminal extras
    rc = s.run(io.StringIO("".join(c + "\n" for c in commands)))
    return s, out.getvalue(), rc


def answer_to(output: str, command: str) -> str:
    """The text written in reply to the (last) input line `command`."""
    marker = f"> {command}\n"
    i = output.rindex(marker) + len(marker)
    rest = output[i:]
    m = re.search(r"^(German|Soviet|game over)> ", rest, re.M)
    return rest[: m.start()] if m else rest


def assert_clean(output: str) -> None:
    assert "Traceback" not in output
    assert "internal error" not in output


# -- a scripted game ----------------------------------------------------------------------------


def test_scripted_hot_seat_setup_move_declaration_and_battle() -> None:
    session, out, rc = run_session(
        [
            "setup standard",  # Soviet
            "setup standard",  # German
            "moves XXIV",
            "move xxiv 0308",
            "end",
            "odds 0405",
            "attack 0405 XLVI LVII",
            "end",
        ]
    )
    assert rc == 0
    assert_clean(out)
    assert "Soviet standard set-up placed." in out
    assert "German panzer movement phase" in out
    moves = answer_to(out, "moves XXIV")
    assert "XXIV Panzer Corps (XXIV) in 0409" in moves and "++" in moves
    assert "0308" in moves
    assert "XXIV Panzer Corps moves 0409 to 0308." in answer_to(out, "move xxiv 0308")
    odds = answer_to(out, "odds 0405")
    assert "against 20A in 0405" in odds
    assert "one column left: forest" in odds
    assert "die:  1 " in odds and "%" in odds
    declared = answer_to(out, "attack 0405 XLVI LVII")
    assert "XLVI Panzer Corps will attack 20th Army in 0405." in declared
    assert "LVII Panzer Corps will attack 20th Army in 0405." in declared
    battle = answer_to(out, "end")
    assert "Die: " in battle  # rolled by the game's seeded dice, and shown
    assert "End of input" in out
    # The record of the session holds exactly what was played.
    texts = [t for _, t in Record.from_game(session.game).actions]
    assert texts[:3] == ["setup standard", "setup standard", "move XXIV 0409-0308"]
    assert "attack XLVI 0405" in texts and "attack LVII 0405" in texts


def test_status_line_and_prompts_say_what_to_decide() -> None:
    _, out, _ = run_session(["setup standard", "setup standard", "status"])
    status = answer_to(out, "status")
    assert "Turn 1 of 7 (Oct I)" in status
    assert "German panzer movement phase" in status
    assert "Moscow: Soviet" in status
    assert "Rules: Battle for Moscow (GDW 1986" in status
    assert "German to decide" in status
    assert "can still move: XXIV" in status
    assert "Soviet set-up: `place UNIT HEX`" in out
    assert "Soviet> setup standard" in out and "German> setup standard" in out


def test_number_picks_from_the_last_list_and_undo_takes_it_back() -> None:
    session, out, _ = run_session(["setup standard", "setup standard", "legal XXIV", "1", "undo", "log 2"])
    assert_clean(out)
    listed = answer_to(out, "legal XXIV")
    first = re.search(r"1\. (move XXIV \S+)", listed)
    assert first is not None
    assert f"> {first.group(1)}" in answer_to(out, "1")
    assert f"Undone: {first.group(1)}" in answer_to(out, "undo")
    assert session.game.history[-1].action.__class__.__name__ == "SetupStandard"


def test_legal_pages_and_more() -> None:
    _, out, _ = run_session(["setup standard", "setup standard", "legal", "more", "more"])
    first = answer_to(out, "legal")
    assert first.startswith("102 legal action(s):")
    assert "more: `more` for the next page" in first
    assert "102. end" in out
    assert "No more" in answer_to(out, "more")


def test_move_without_via_when_several_paths_take_different_cities() -> None:
    game = Game(seed=1)
    game.state = position_from_text(
        "bfm ed=gdw1986 opt=- t=1 ph=german_panzer_movement G=XLI@0402 S=16A@1405/h "
        "ctl=0204,0307 repl=0 arr=- stack=- step=declare battles=- cur=- res=-"
    )
    session, out, _ = run_session(["move XLI 0203", "2"], game=game)
    assert_clean(out)
    choices = answer_to(out, "move XLI 0203")
    assert "more than one way" in choices
    assert "via 0601" in choices and "via 0603" in choices
    picked = answer_to(out, "2")
    assert "XLI Panzer Corps moves 0402 to 0203" in picked


# -- combat decisions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        (
            "bfm ed=vpg2009 opt=- t=5 ph=german_combat G=XXIV@1003! S=16A@1103 ctl=0204,0307 repl=0 "
            "arr=- stack=- step=standfast battles=16A<XXIV cur=16A<XXIV:1103:3:DR:0 res=-",
            ["Soviet: 16th Army in 1103 may stand fast", "standfast yes", "standfast no"],
        ),
        (
            "bfm ed=gdw1986 opt=- t=5 ph=german_combat G=XXIV@1003!,XLI@1002! S=16A@1103 "
            "ctl=0204,0307 repl=0 arr=- stack=- step=loss battles=16A<XXIV+XLI "
            "cur=16A<XXIV+XLI:1103:2:AL:-1 res=-",
            ["the attack failed (AL)", "lose XXIV", "lose XLI"],
        ),
        (
            "bfm ed=gdw1986 opt=- t=5 ph=german_combat G=XXIV@1003!,XLI@1002! S=- "
            "ctl=0204,0307 repl=0 arr=- stack=- step=advance battles=16A<XXIV+XLI "
            "cur=16A<XXIV+XLI:1103:2:DE:0 res=-",
            ["1103 is empty", "advance XXIV", "advance none"],
        ),
    ],
)
def test_combat_steps_prompt_with_numbered_choices(position: str, expected: list[str]) -> None:
    game = Game(edition=position.split()[1][3:], seed=1)
    game.state = position_from_text(position)
    _, out, _ = run_session([], game=game)
    assert "Choices:" in out
    for text in expected:
        assert text in out


# -- wrong input --------------------------------------------------------------------------------


def test_undo_with_nothing_to_undo_says_so() -> None:
    """Issue 15: undo reaches back across phase ends, so after the set-ups it takes back the
    German set-up; with nothing played, or right after a die roll, there is nothing to undo."""
    _, out, rc = run_session(["undo"])
    assert rc == 0 and "Nothing to undo" in answer_to(out, "undo")
    _, out, _ = run_session(["setup standard", "setup standard", "undo"])
    assert "Undone: setup standard" in answer_to(out, "undo")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("mvoe XXIV 0308", "Did you mean `move`?"),
        ("frobnicate", "Unknown command 'frobnicate'"),
        ("odds", "usage: odds HEX"),
        ("odds 9999", "'9999' is not a hex of this map"),
        ("odds 0605", "0605 is empty"),
        ("odds 0505", "No German unit is next to 0505"),
        ("moves XIV", "did you mean"),
        ("move XXIV 1103", "XXIV cannot reach 1103"),
        ("move XXIV", "usage: move UNIT HEX"),
        ("attack LVI 0303", "not possible in a movement phase"),
        ("move 16A 0404", "16th Army is not a unit of the side moving now"),
        ("moves XXII", "Only panzer units move in the panzer movement phase"),
        ("moves 16A", "16th Army is not a unit of the side moving now."),
        ("moves 0409", "'0409' is a hex; a unit id is needed here"),
        ("moves none", "there is no unit 'none'"),
        ("move no 0308", "there is no unit 'no'"),
        ("odds 0405 none", "there is no unit 'none'"),
        ("odds 0405 XLVI 1-2", "there is no unit '1-2'"),
        ("roll 6", "dice are rolled automatically"),
        ("7", "No numbered list yet"),
        ("log x", "usage: log [N]"),
        ("save", "usage: save FILE"),
        ("load /nonexistent/file.rec", "no such file"),
        ("hex 0000", "is not a hex of this map"),
        ("units everyone", "usage: units"),
        ("automap sometimes", "usage: automap"),
        ("help nothing", "Unknown command 'nothing'"),
        ("standfast maybe", "expected 'standfast yes' or 'standfast no'"),
    ],
)
def test_wrong_input_gets_one_helpful_line(command: str, expected: str) -> None:
    _, out, rc = run_session(["setup standard", "setup standard", command])
    assert rc == 0
    assert_clean(out)
    reply = answer_to(out, command)
    assert expected in reply
    assert len(reply.strip().splitlines()) == 1, reply


def test_moves_says_why_a_unit_cannot_move() -> None:
    script = ["setup standard", "setup standard", "move XXIV 0308", "moves XXIV", "moves", "end", "moves"]
    _, out, _ = run_session([*script, "moves XLI"])
    assert_clean(out)
    assert answer_to(out, "moves XXIV").strip() == "XXIV Panzer Corps has already moved this phase."
    listed = out[out.index("> moves\n") :]
    assert (
        listed.startswith("> moves\nUnits that can move (destinations): ")
        and "XXIV (" not in listed.split("\n")[1]
    )
    assert answer_to(out, "moves").strip() == "No unit moves now: this is the German combat phase."
    assert answer_to(out, "moves XLI").strip() == "No unit moves now: this is the German combat phase."


def test_help_lists_commands_and_actions() -> None:
    _, out, _ = run_session(["help", "help odds", "?"])
    text = answer_to(out, "help")
    for word in ("moves", "odds", "legal", "undo", "save", "load", "map", "log", "quit", "why"):
        assert f"\n  {word}" in text
    assert "attack UNIT HEX" in text and "retreat HEX-HEX" in text
    assert "Without units" in answer_to(out, "help odds")


# -- leaving ------------------------------------------------------------------------------------


def test_quit_and_end_of_input_leave_cleanly() -> None:
    _, out, rc = run_session(["quit", "map"])
    assert rc == 0 and "Leaving the game." in out
    assert "map\n" not in out.split("quit")[-1]
    _, out, rc = run_session([])
    assert rc == 0 and "End of input" in out


def test_ctrl_c_leaves_cleanly() -> None:
    class Interrupting:
        def readline(self) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    rc = make_session(Game(seed=1), {0: None, 1: None}, out=out).run(Interrupting())
    assert rc == 130
    assert "Interrupted" in out.getvalue()
    assert_clean(out.getvalue())


# -- save and load ------------------------------------------------------------------------------


def test_save_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    session, out, _ = run_session(
        [
            "setup standard",
            "setup standard",
            "move XXIV 0308",
            "end",
            "attack XLVI 0405",
            "end",
            f"save {path}",
        ]
    )
    assert_clean(out)
    assert f"to {path}" in answer_to(out, f"save {path}")
    saved_position = session.game.position()
    replayed = Record.load(path).replay()
    assert replayed.position() == saved_position
    assert replayed.players == {"german": "human", "soviet": "human"}
    # Loading in another session continues the same game with the same dice.
    other, out2, _ = run_session([f"load {path}", "status"])
    assert_clean(out2)
    assert "Loaded" in out2
    assert other.game.position() == saved_position
    assert other.game.rng.getstate() == session.game.rng.getstate()


def test_load_of_a_corrupt_record_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.rec"
    path.write_text('[Game "bfm"]\n\n1. S setup standard\n2. G move XXIV 0409-1103\n', encoding="utf-8")
    _, out, _ = run_session([f"load {path}"])
    reply = answer_to(out, f"load {path}")
    assert "line 4" in reply and len(reply.strip().splitlines()) == 1
    assert_clean(out)


# -- computer players ---------------------------------------------------------------------------


class Explaining(RandomPlayer):
    def __init__(self, seed: int | None = None):
        super().__init__(seed, name="explaining")

    def explain(self) -> str:
        return "I liked the look of it."


def test_computer_moves_are_printed_and_explained() -> None:
    _, out, _ = run_session(["setup standard", "why"], controllers={0: None, 1: Explaining(3)})
    assert_clean(out)
    assert "Soviet (explaining): " in out
    assert "type `why`" in out
    assert "I liked the look of it." in answer_to(out, "why")


def test_two_computer_players_play_a_whole_game() -> None:
    session, out, rc = run_session(
        ["log 1"], controllers={0: make_player("random", 1), 1: make_player("random", 2)}
    )
    assert rc == 0
    assert_clean(out)
    assert session.game.is_over
    assert "The game is over" in out
    assert "game over> log 1" in out


class _Bot:
    """A human that types a random legal action (and now and then a command) each turn."""

    def __init__(self, seed: int):
        import random

        self.rng = random.Random(seed)
        self.session: Session | None = None

    def readline(self) -> str:
        from typhoon.games.bfm.notation import action_to_text

        assert self.session is not None
        g = self.session.game
        if g.is_over:
            return ""
        if self.rng.random() < 0.05:
            return self.rng.choice(["units\n", "log 2\n", "odds 0303\n", "moves\n", "undo\n", "legal\n"])
        return action_to_text(self.rng.choice(g.legal_actions())) + "\n"


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_a_whole_game_typed_at_the_prompt(edition: str) -> None:
    bot = _Bot(7)
    out = io.StringIO()
    session = make_session(Game(edition=edition, seed=7), {0: None, 1: make_player("random", 8)}, out=out)
    bot.session = session
    assert session.run(bot) == 0
    assert session.game.is_over
    text = out.getvalue()
    assert_clean(text)
    assert ESC not in text


# -- the command --------------------------------------------------------------------------------


def _play(monkeypatch: pytest.MonkeyPatch, argv: list[str], script: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["play", *argv]) == 0


def test_typhoon_play_no_color(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _play(monkeypatch, ["--no-color", "--seed", "3"], "setup standard\nmap\nquit\n")
    out = capsys.readouterr().out
    assert ESC not in out
    assert "German: human; Soviet: computer (heuristic)." in out  # issue 15: the default opponent
    assert "[XXIV]" in out


def test_no_color_environment(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    _play(monkeypatch, ["--hotseat", "--edition", "vpg2009"], "map\nquit\n")
    out = capsys.readouterr().out
    assert ESC not in out
    assert "VPG 2009" in out


def test_colour_only_when_wanted() -> None:
    _, plain, _ = run_session(["map"])
    _, coloured, _ = run_session(["map"], color=True)
    assert ESC not in plain
    assert ESC + "[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_typhoon_play_options_and_load(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.rec"
    _play(
        monkeypatch,
        ["--hotseat", "-o", "soviet_replacements=4", "--seed", "2"],
        f"setup standard\nsetup standard\nsave {path}\nquit\n",
    )
    out = capsys.readouterr().out
    assert "soviet_replacements=4" in out
    _play(monkeypatch, ["--load", str(path), "--german", "human", "--soviet", "human"], "status\nquit\n")
    out = capsys.readouterr().out
    assert "German panzer movement phase" in out
    assert "soviet_replacements=4" in out


def test_typhoon_play_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--soviet", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "unknown player 'nobody'" in err and "random" in err
    assert main(["play", "--edition", "gdw2020"]) == 2
    assert "unknown edition" in capsys.readouterr().err
    assert main(["play", "--load", "/nonexistent.rec"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_new_player_levels_need_no_change(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    levels: dict[str, Any] = dict(LEVELS)
    levels["explaining"] = Explaining
    monkeypatch.setattr("typhoon.players.base.LEVELS", levels)
    _play(
        monkeypatch,
        ["--no-color", "--german", "explaining", "--soviet", "human"],
        "setup standard\nwhy\nquit\n",
    )
    out = capsys.readouterr().out
    assert "German: computer (explaining); Soviet: human." in out
    assert "German (explaining): " in out
    assert "I liked the look of it." in out


class Broken:
    name = "broken"

    def choose(self, state: object, actions: Sequence[object]) -> object:
        raise RuntimeError("out of ideas")


def test_a_failing_computer_player_hands_its_side_to_the_human() -> None:
    session, out, _ = run_session(["setup standard"], controllers={0: None, 1: Broken()})
    assert_clean(out)
    assert "Soviet (broken) failed (RuntimeError: out of ideas); you take over the soviet side." in out
    assert session.humans() == {0, 1}
    assert "Soviet standard set-up placed." in out


def test_hex_units_and_automap() -> None:
    _, out, _ = run_session(["setup standard", "setup standard", "hex 1103", "units soviet"])
    info = answer_to(out, "hex 1103")
    assert "city Moscow" in info and "Soviet-controlled" in info
    assert "river on the" in info and "(to 1104)" in info
    table = answer_to(out, "units soviet")
    assert "16A" in table
    assert "5th Army  [eliminated]" in table  # set-up leftovers count as eliminated (seed 002)
    assert "1SA" in table and "replacement from turn 4" in table
    _, on, _ = run_session(["setup standard", "setup standard", "move XXIV 0308"], automap="on")
    assert "/0101" in answer_to(on, "move XXIV 0308")
    _, phase, _ = run_session(["setup standard", "setup standard", "move XXIV 0308"], automap="phase")
    assert "/0101" not in answer_to(phase, "move XXIV 0308")


def test_several_attackers_are_all_or_nothing() -> None:
    # Issue 15, Terminal: a multi-unit `attack` with one bad unit was half-applied (the good
    # units declared, then an error). Now nothing is played and the bad unit is named.
    session, out, _ = run_session(["setup standard", "setup standard", "end", "attack 0405 XLVI XXIV LVII"])
    reply = answer_to(out, "attack 0405 XLVI XXIV LVII")
    assert "Nothing played" in reply
    assert "unit XXIV, the 2nd of 3 actions" in reply
    assert "XXIV Panzer Corps is not adjacent to 0405" in reply
    assert "will attack" not in reply
    texts = [t for _, t in Record.from_game(session.game).actions]
    assert not any(t.startswith("attack") for t in texts)
    # The same line without the bad unit declares both attackers.
    session, out, _ = run_session(["setup standard", "setup standard", "end", "attack 0405 XLVI LVII"])
    texts = [t for _, t in Record.from_game(session.game).actions]
    assert texts[-2:] == ["attack XLVI 0405", "attack LVII 0405"]


def test_play_actions_refuses_a_sequence_across_a_change_of_side() -> None:
    """The generic all-or-nothing check (Session.play_actions): a sequence that would pass the
    decision to the other side (or the dice) part-way plays nothing."""
    game = Game(seed=5)
    out = io.StringIO()
    s = make_session(game, {0: None, 1: None}, out=out)
    first = game.legal_actions()[0]  # the Soviet set-up hands the decision to the German side
    trial = game.copy()
    trial.play(first)
    second = trial.legal_actions()[0]
    assert trial.current_player() != game.current_player()
    before = len(s.game.history)
    assert not s.play_actions([first, second])
    assert len(s.game.history) == before
    assert "no longer decides" in out.getvalue()
    assert s.play_actions([first])
    assert len(s.game.history) == before + 1


def test_errors_never_suggest_roll() -> None:
    # Issue 15, Terminal: error messages listed `roll` (a chance action) among the player's verbs.
    _, out, _ = run_session(["rol"])
    assert "`roll`" not in answer_to(out, "rol")


def test_moscow_campaign_multi_unit_attack_is_all_or_nothing() -> None:
    """Issue 15, Terminal: `attack HEX with A,B` in the Moscow Campaign (whose engine adds one
    unit at a time) plays both additions or, when one unit may not attack, none, naming it."""
    from typhoon.game import CHANCE

    g = Game("tmc", "1", seed=3)
    players = [RandomPlayer(3), RandomPlayer(4)]
    while True:  # random play to the first German combat with two attacks open (action 335)
        legal = g.legal_actions()
        attacks = [g.text(a) for a in legal if getattr(a, "kind", "") == "attack"]
        if attacks == ["attack 2760 with G167Inf", "attack 2648 with G9Pz"]:
            break
        if g.current_player() == CHANCE:
            g.roll()
        else:
            g.play(players[g.current_player()].choose(g.state, legal))
        assert len(g.history) < 400
    out = io.StringIO()
    s = make_session(g, {0: None, 1: None}, out=out, automap="off")
    before = len(g.history)
    s.handle("attack 2760 with G167Inf,G9Pz")
    reply = out.getvalue()
    assert "Nothing played" in reply and "unit G9Pz, the 2nd of 2 actions" in reply
    assert len(s.game.history) == before
    s.handle("attack 2760 with G167Inf")
    assert len(s.game.history) == before + 1
