"""Self-play data for learners (DMC and the like): :func:`generate_selfplay` writes it,
:func:`read_selfplay` and :func:`read_shard` read it back.

Every deal ``i`` is played by four fresh copies of one agent (seeds derived from the run
seed, ``i`` and the seat) from cards, a level and a previous finishing order (so tribute
and return decisions occur) drawn from the run seed and ``i``, under the run's rules.
Deals are grouped in shards of ``shard_size`` deals, one task each, written as
``shard-00000.npz``, ... with one row per decision:

``states`` float32[M, D]
    the deciding seat's view (:func:`encode_state`);
``seats`` int8[M], ``deals`` int64[M] (the deal index ``i``), ``phases`` int8[M] (0 play,
1 tribute, 2 return);
``action_ids`` int16[M], ``masks`` bool[M, 313]
    the chosen action as an id of the fixed action space
    (:mod:`guandan_fast.encode.actions`, the same in every version), and the ids the seat
    could take;
``positions`` int32[M]
    the chosen action's position in ``deal.legal_actions()``, whose order may change
    between versions: read it with the rows below, not against a newer ``Deal``;
``action_offsets`` int64[M + 1], ``action_cards`` int8[N, 54], ``action_row_ids`` int16[N]
    every legal action as counts per card index (a pass is a zero row) and its id,
    decision ``j``'s rows being ``action_offsets[j]:action_offsets[j + 1]``, in the order
    of ``positions``;
``returns`` float32[M]
    the deal's result for the deciding seat's team: +n when it finished first and went
    up n levels, -n when the other team did;
``meta``
    a JSON document (:data:`FORMAT`, the package version, the agent and its options, the
    run seed, the shard's deals, the rules, the state encoding and its size, the action
    space's size), read back as :attr:`SelfPlayShard.meta`.

A folder holds one data set: a new run refuses a folder that is not empty unless told
to replace the shards there or to append to them (with the same encoding, and another
seed: the same seed would repeat its deals).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from .. import __version__
from ..agents import parse_agent_spec
from ..agents.base import checked_choice
from ..encode import LAYOUTS
from ..encode import actions as action_space
from ..engine.cards import NUM_CARDS, parse_card
from ..engine.deal import Deal
from ..engine.rules import Rules, check_rules
from .matches import AgentSpec, agent_label, build_agent, derive_seed
from .progress import ProgressBar
from .runner import check_positive, run_tasks

#: The shard format :func:`read_shard` reads (``meta["format"]``).
FORMAT: Final = "guandan_fast selfplay 2"
#: What :func:`generate_selfplay` does with a folder that is not empty.
IF_EXISTS: Final = ("fail", "replace", "append")
#: The state encoding when none is named (the encoders are part of the compiled core).
DEFAULT_ENCODING: Final = "danzero"
_SHARD_NAME = re.compile(r"shard-(\d{5,})\.npz")

PHASE_CODES = {"play": 0, "tribute": 1, "return": 2}
#: The layout of :func:`count_planes`: own hand, unseen, four seats' played cards, cards left.
COUNT_PLANES_SIZE = NUM_CARDS * 6 + 4
_BITS = np.arange(NUM_CARDS, dtype=np.uint64)


def plane_counts(planes: np.ndarray) -> np.ndarray:
    """Card counts int8[..., 54] of (once, twice) bit planes uint64[..., 2]."""
    planes = np.asarray(planes, dtype=np.uint64)
    bits = (planes[..., None] >> _BITS) & np.uint64(1)
    return np.asarray(bits.sum(axis=-2, dtype=np.int8))


def count_planes(deal: Deal, seat: int) -> np.ndarray:
    """float32[328], what ``seat`` knows as card counts: its hand (54), the cards it has not
    seen (54: two decks minus its hand minus every card played), the cards each seat has
    played (4 × 54) and each seat's cards left (4), seats in order from ``seat`` on. What
    the seat knows of the others' hands from tribute and return is left out."""
    played = plane_counts(deal.played)
    own = deal.hands[seat].counts().astype(np.int8)
    order = [(seat + k) % 4 for k in range(4)]
    left = deal.cards_left()
    return np.concatenate(
        [own, 2 - own - played.sum(axis=0), played[order].ravel(), [left[s] for s in order]]
    ).astype(np.float32)


def encode_state(deal: Deal, seat: int, encoding: str) -> np.ndarray:
    """The state encoding named ``encoding``: ``"counts"`` (:func:`count_planes`) or a
    layout of :func:`guandan_fast.encode.state` (``"danzero"``, ``"full-v1"``)."""
    if encoding == "counts":
        return count_planes(deal, seat)
    from .. import encode

    return np.asarray(encode.state(deal, seat, encoding), dtype=np.float32)


def action_cards(deal: Deal) -> np.ndarray:
    """int8[n, 54]: the cards of each of ``deal.legal_actions()`` as counts (a pass: zeros)."""
    if deal.phase == "play":
        cards = plane_counts(deal.legal_moves().cards)
        if deal.following:
            cards = np.concatenate([np.zeros((1, NUM_CARDS), dtype=np.int8), cards])
        return cards
    actions = deal.legal_actions()
    cards = np.zeros((len(actions), NUM_CARDS), dtype=np.int8)
    for row, (_, _, (card,)) in enumerate(actions):
        cards[row, parse_card(card)] = 1
    return cards




def selfplay_deal(seed: int, index: int, rules: Rules | None = None) -> Deal:
    """Deal ``index`` of a run: cards, level and previous finish (or none) from the seed."""
    rng = random.Random(derive_seed("selfplay deal", seed, index))
    previous = rng.sample(range(4), 4) if rng.random() < 0.75 else None
    return Deal.random(rng.getrandbits(63), rng.randint(2, 14), previous_finish=previous, rules=rules)


def play_shard(
    spec: AgentSpec, seed: int, first: int, count: int, encoding: str, rules: Rules | None = None
) -> dict[str, np.ndarray]:
    """The decisions of deals ``first .. first + count - 1`` as the arrays of one shard
    (without ``meta``)."""
    states: list[np.ndarray] = []
    seats: list[int] = []
    deals: list[int] = []
    phases: list[int] = []
    positions: list[int] = []
    chosen_ids: list[int] = []
    masks: list[np.ndarray] = []
    returns: list[int] = []
    cards: list[np.ndarray] = []
    row_ids: list[np.ndarray] = []
    for index in range(first, first + count):
        deal = selfplay_deal(seed, index, rules)
        agents = [build_agent(spec, derive_seed("selfplay agent", seed, index, s)) for s in range(4)]
        start = len(seats)
        while not deal.done:
            seat = deal.current_seat
            ids, mask = action_space.ids_and_mask(deal)
            states.append(encode_state(deal, seat, encoding))
            cards.append(action_cards(deal))
            row_ids.append(ids)
            masks.append(mask)
            seats.append(seat)
            phases.append(PHASE_CODES[deal.phase])
            choice = checked_choice(agents[seat], deal, seat)
            positions.append(choice)
            chosen_ids.append(int(ids[choice]))
            deal.step(choice)
        outcome = deal.outcome
        assert outcome is not None  # the deal is done
        team, up = outcome
        returns.extend(up if s % 2 == team else -up for s in seats[start:])
        deals.extend([index] * (len(seats) - start))
    return {
        "states": np.stack(states).astype(np.float32),
        "seats": np.asarray(seats, dtype=np.int8),
        "deals": np.asarray(deals, dtype=np.int64),
        "phases": np.asarray(phases, dtype=np.int8),
        "action_ids": np.asarray(chosen_ids, dtype=np.int16),
        "masks": np.stack(masks),
        "positions": np.asarray(positions, dtype=np.int32),
        "action_offsets": np.concatenate([[0], np.cumsum([len(c) for c in cards])]).astype(np.int64),
        "action_cards": np.concatenate(cards).astype(np.int8),
        "action_row_ids": np.concatenate(row_ids).astype(np.int16),
        "returns": np.asarray(returns, dtype=np.float32),
    }


def check_encoding(encoding: object) -> str:
    """A state encoding's name: ``"counts"`` or a layout of :mod:`guandan_fast.encode`."""
    names = ("counts", *LAYOUTS)
    if encoding not in names:
        raise ValueError(f"unknown state encoding {encoding!r}: the encodings are {', '.join(names)}")
    return str(encoding)


def run_meta(spec: AgentSpec, seed: int, deals: int, shard_size: int, encoding: str, rules: Rules) -> dict[str, Any]:
    """What every shard of a run records (:attr:`SelfPlayShard.meta` without the shard's own part)."""
    if isinstance(spec, (str, tuple)):
        name, options = parse_agent_spec(spec) if isinstance(spec, str) else spec
        agent: dict[str, Any] = {"spec": agent_label(spec), "name": name, "options": options}
    else:  # an agent object or a function: its repr is all there is to record
        agent = {"spec": agent_label(spec), "name": None, "options": None}
    size = COUNT_PLANES_SIZE if encoding == "counts" else LAYOUTS[encoding][0]
    return {
        "format": FORMAT,
        "package_version": __version__,
        "agent": agent,
        "seed": seed,
        "run_deals": deals,
        "shard_size": shard_size,
        "rules": dataclasses.asdict(rules),
        "encoding": {"name": encoding, "state_size": size},
        "action_space": {"module": "guandan_fast.encode.actions", "size": action_space.NUM_ACTIONS},
    }


def generate_selfplay(
    agent: AgentSpec,
    deals: int,
    out: str | Path,
    seed: int = 0,
    *,
    shard_size: int = 100,
    workers: int | None = None,
    ray_address: str | None = None,
    encoding: str | None = None,
    rules: Rules | None = None,
    if_exists: str = "fail",
    progress: bool = False,
) -> list[Path]:
    """Play ``deals`` deals by ``agent`` in all four seats and write the shards to ``out``
    (created if needed); the paths written, in order. The same seed gives the same data
    whatever the workers.

    ``if_exists`` says what to do when ``out`` is not empty: ``"fail"`` (ValueError, the
    default), ``"replace"`` (remove the shards there first; other files stay) or
    ``"append"`` (number the new shards after the ones there, which must have the same
    encoding and another seed). Each shard is written whole or not at all; Ctrl-C keeps
    the shards written so far and raises KeyboardInterrupt."""
    deals = check_positive(deals, "the number of deals")
    shard_size = check_positive(shard_size, "the shard size")
    encoding = check_encoding(DEFAULT_ENCODING if encoding is None else encoding)
    rules = check_rules(rules)
    if if_exists not in IF_EXISTS:
        raise ValueError(f"if_exists must be one of {', '.join(IF_EXISTS)}, not {if_exists!r}")
    build_agent(agent, 0)  # a bad name or option fails here, not in a worker
    meta = run_meta(agent, seed, deals, shard_size, encoding, rules)
    directory = Path(out)
    next_shard = _prepare_folder(directory, if_exists, meta)
    starts = range(0, deals, shard_size)
    tasks = [(agent, seed, first, min(shard_size, deals - first), encoding, rules) for first in starts]
    bar = ProgressBar(deals) if progress else None
    if bar is not None:
        bar.set_label(f"self-play: {deals} deals in {len(tasks)} shards")
    written: dict[int, Path] = {}
    try:
        with closing(run_tasks(play_shard, tasks, workers=workers, ray_address=ray_address)) as done:
            for shard, arrays in done:
                first, count = tasks[shard][2], tasks[shard][3]
                shard_meta = {**meta, "shard": shard, "first_deal": first, "deals": count}
                path = directory / f"shard-{next_shard + shard:05d}.npz"
                _write_whole(path, {**arrays, "meta": np.asarray(json.dumps(shard_meta, default=repr))})
                written[shard] = path
                if bar is not None:
                    bar.tick(count)
    finally:
        if bar is not None:
            bar.close()
    return [written[k] for k in sorted(written)]


def _prepare_folder(directory: Path, if_exists: str, meta: dict[str, Any]) -> int:
    """Make ``directory`` ready for a run; the number of its first new shard."""
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"the self-play output {str(directory)!r} is a file, not a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the self-play folder {str(directory)!r}: {error.strerror or error}") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write to the self-play folder {str(directory)!r}: permission denied")
    entries = sorted(directory.iterdir())
    numbers = {entry: int(name.group(1)) for entry in entries if (name := _SHARD_NAME.fullmatch(entry.name))}
    shards = list(numbers)
    if not entries:
        return 0
    if if_exists == "fail":
        raise ValueError(
            f"the self-play folder {str(directory)!r} is not empty ({len(entries)} entries, {len(shards)} shards): "
            "choose a new folder, or replace its shards (--overwrite) or add to them (--append)"
        )
    if if_exists == "replace":
        for shard in shards:
            shard.unlink()
        return 0
    for shard in shards:
        old = _read_meta(shard)
        if old["encoding"] != meta["encoding"]:
            raise ValueError(
                f"cannot append: {shard} holds states encoded {old['encoding']['name']!r}, "
                f"not {meta['encoding']['name']!r} (one folder, one encoding)"
            )
        if old["seed"] == meta["seed"]:
            raise ValueError(f"cannot append: {shard} was played with seed {meta['seed']}, which would repeat its deals")
    return 1 + max(numbers.values(), default=-1)


def _write_whole(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``np.savez_compressed`` into a temporary file renamed into place: a shard is whole or absent."""
    partial = path.with_name(path.name + ".partial")
    try:
        with open(partial, "wb") as file:
            # numpy's stub types the keyword allow_pickle (a bool) beside **arrays, which a dict could set
            np.savez_compressed(file, **arrays)  # type: ignore[arg-type]
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class SelfPlayShard:
    """One shard of self-play data (the module's documentation has every array)."""

    path: Path
    meta: dict[str, Any]
    states: np.ndarray
    seats: np.ndarray
    deals: np.ndarray
    phases: np.ndarray
    action_ids: np.ndarray
    masks: np.ndarray
    positions: np.ndarray
    action_offsets: np.ndarray
    action_cards: np.ndarray
    action_row_ids: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        """The number of decisions."""
        return len(self.seats)

    def legal_cards(self, decision: int) -> np.ndarray:
        """``int8[n, 54]``: the cards of every legal action of decision ``decision``."""
        return self.action_cards[self._rows(decision)]

    def legal_ids(self, decision: int) -> np.ndarray:
        """``int16[n]``: the id of every legal action of decision ``decision`` (list order)."""
        return self.action_row_ids[self._rows(decision)]

    def _rows(self, decision: int) -> slice:
        j = range(len(self))[decision]
        return slice(int(self.action_offsets[j]), int(self.action_offsets[j + 1]))


_ARRAYS: Final = tuple(field.name for field in dataclasses.fields(SelfPlayShard)[2:])


#: What reading a file that is no whole ``.npz`` raises: an empty or cut-short file, a damaged
#: member (numpy's ValueError, for bytes it cannot read at all, is taken apart).
_DAMAGED: Final = (OSError, EOFError, zipfile.BadZipFile, zlib.error)


@contextmanager
def _open_shard(path: Path) -> Iterator[Any]:
    """The ``.npz`` archive at ``path``; a ValueError that names the file when it is not one
    (or when reading it fails), whatever numpy or zipfile raised."""
    try:
        data = np.load(path, allow_pickle=False)
    except ValueError:  # numpy calls bytes it cannot read "pickled data" and suggests unpickling them
        raise ValueError(f"{path} is not a readable self-play shard (not an .npz archive)") from None
    except _DAMAGED as error:
        raise ValueError(f"{path} is not a readable self-play shard ({type(error).__name__}: {error})") from None
    if not isinstance(data, np.lib.npyio.NpzFile):  # a bad file, not a bad argument: ValueError
        raise ValueError(f"{path} is not a readable self-play shard (a single array, not an .npz archive)")  # noqa: TRY004
    with data:
        try:
            yield data
        except _DAMAGED as error:
            raise ValueError(f"{path} is not a readable self-play shard ({type(error).__name__}: {error})") from None


def _read_meta(path: Path) -> dict[str, Any]:
    with _open_shard(path) as data:
        return _meta_of(path, data)


def _meta_of(path: Path, data: Any) -> dict[str, Any]:
    if "meta" not in data.files:
        raise ValueError(f"{path} is no guandan_fast self-play shard of format {FORMAT!r} (it has no meta)")
    try:
        meta = json.loads(str(data["meta"]))
    except ValueError as error:  # not JSON, or an array of objects numpy will not unpickle
        raise ValueError(f"{path} is no guandan_fast self-play shard: its meta is not JSON ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise ValueError(f"{path} is a shard of format {found!r}; this reader reads {FORMAT!r}")
    return meta


def read_shard(path: str | Path) -> SelfPlayShard:
    """One shard, fully read and checked (ValueError for a file of another format or
    with arrays that do not fit together)."""
    path = Path(path)
    with _open_shard(path) as data:
        meta = _meta_of(path, data)
        missing = [name for name in _ARRAYS if name not in data.files]
        if missing:
            raise ValueError(f"{path} lacks the arrays {', '.join(missing)}")
        try:
            arrays = {name: data[name] for name in _ARRAYS}
        except ValueError as error:  # an array of objects, which is never unpickled
            raise ValueError(f"{path} is not a readable self-play shard ({error})") from None
    shard = SelfPlayShard(path, meta, **arrays)
    decisions = len(shard.seats)
    offsets = shard.action_offsets
    fits = (
        all(len(arrays[name]) == decisions for name in ("states", "deals", "phases", "action_ids", "masks", "positions", "returns"))
        and shard.states.shape[1:] == (meta["encoding"]["state_size"],)
        and shard.masks.shape[1:] == (meta["action_space"]["size"],)
        and len(offsets) == decisions + 1
        and offsets[0] == 0
        and bool(np.all(np.diff(offsets) > 0))
        and offsets[-1] == len(shard.action_cards) == len(shard.action_row_ids)
    )
    if not fits:
        raise ValueError(f"{path}: the arrays of this shard do not fit together (a damaged file?)")
    return shard


def read_selfplay(directory: str | Path) -> Iterator[SelfPlayShard]:
    """The shards of a self-play folder in order, read one at a time (:func:`read_shard`),
    after checking that they share one format and one state encoding."""
    directory = Path(directory)
    shards = sorted(p for p in directory.iterdir() if _SHARD_NAME.fullmatch(p.name))
    if not shards:
        raise ValueError(f"no self-play shards (shard-NNNNN.npz) in {str(directory)!r}")
    encodings = {json.dumps(_read_meta(path)["encoding"], sort_keys=True) for path in shards}
    if len(encodings) > 1:
        raise ValueError(f"the shards in {str(directory)!r} mix state encodings: {', '.join(sorted(encodings))}")
    return (read_shard(path) for path in shards)
