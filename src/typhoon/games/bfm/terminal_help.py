"""Battle for Moscow's help texts at the terminal: its words for every command (the map's
symbols, its examples) and its actions' notation."""

from __future__ import annotations

from typhoon.tui.help import Command, with_own_words

# Only the commands Battle for Moscow says in its own words; the rest are the generic ones.
COMMANDS: tuple[Command, ...] = with_own_words(
    (
        Command(
            "map",
            "map [full|compact]",
            "draw the map (units, terrain, cities, rivers); compact fits 80 columns",
            "Each hex shows its id, f forest / # fortification / = rail, the unit ([XXIV] German, (16A)\n"
            "Soviet) with its strength (12 full, 6h half, * moved or attacking this phase) and the city\n"
            "(MOS:S = Moscow, Soviet-controlled). Rivers run along the hex sides drawn with ~.\n"
            "The full map is 114 columns wide; on a narrower terminal the compact map (one line per\n"
            "hex, 80 columns, no rivers) is drawn instead. `map full` or `map compact` chooses.",
        ),
        Command("units", "units [german|soviet]", "list the units: where they are, strength, what they did"),
        Command("hex", "hex HEX", "terrain, river sides, city, unit and zones of control of one hex"),
        Command(
            "moves",
            "moves [UNIT]",
            "where a unit can move now (numbered, marked ++ on the map); without UNIT: who can move",
        ),
        Command(
            "odds",
            "odds HEX [UNIT ...]",
            "odds of an attack on HEX, each shift, and the chance of each result",
            "Without units: the battle already declared against HEX, or else every unit of the attacking\n"
            "side next to it that has not attacked yet. Example: odds 0303 LVI XXIV",
        ),
        Command(
            "legal",
            "legal [WORD ...]",
            "every legal action now, numbered (type a number to play one); WORD filters, e.g. legal XXIV",
            "Long lists come in pages: `more` shows the next page.",
        ),
        Command("status", "status", "turn, phase, mud, replacements, Moscow, rules in force"),
    )
)

ACTIONS_HELP = """\
Actions (type them as shown; unit ids as on the counters, hexes as CCRR; case does not matter):
  setup standard              place the whole side in the quick-start arrangement
  place UNIT HEX              set-up: put a unit on a set-up hex
  move UNIT HEX               move (or: move UNIT FROM-TO [via HEX,HEX] as records write it)
  attack UNIT HEX             declare an attack (also: attack HEX UNIT UNIT ... for several units)
  end                         end the phase / close the attack declarations
  resolve HEX                 resolve the declared battle against HEX next
  lose UNIT                   take a step loss from an attacking unit (AL, EX)
  retreat HEX-HEX             the defender's retreat path, chosen by the attacker
  standfast yes|no            VPG: a defender in Moscow or Tula stands fast (loses a step) or retreats
  advance UNIT | advance none after combat, one attacker may enter the emptied hex
  rebuild UNIT HEX            replacement: an eliminated unit returns at half strength
  restore UNIT                replacement: a half-strength unit returns to full strength
  reinforce UNIT HEX          place a free reinforcement (VPG: 1st Shock Army, turn 4)
  NUMBER                      the action with that number in the last list shown
Dice are rolled automatically from the game's seed, and the result is shown."""

ACTION_USAGE = {
    "setup": "setup standard",
    "place": "place UNIT HEX",
    "move": "move UNIT HEX  or  move UNIT FROM-TO [via HEX,HEX]",
    "attack": "attack UNIT HEX  or  attack HEX UNIT [UNIT ...]",
    "end": "end",
    "resolve": "resolve HEX",
    "lose": "lose UNIT",
    "retreat": "retreat HEX-HEX",
    "standfast": "standfast yes|no",
    "advance": "advance UNIT|none",
    "rebuild": "rebuild UNIT HEX",
    "restore": "restore UNIT",
    "reinforce": "reinforce UNIT HEX",
    "roll": "(dice are rolled automatically)",
}
ACTION_VERBS = tuple(ACTION_USAGE)  # the words that start an action
