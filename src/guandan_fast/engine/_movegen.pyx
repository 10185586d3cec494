# cython: language_level=3, cdivision=True, freethreading_compatible=True
"""Native core: legal-move generation over bitmask hands (see guandan_fast.engine.hand).

The kernels (every ``noexcept nogil`` function below) work on plain C integers and
arrays; the Python entry points at the bottom validate their arguments, run a kernel
into a growable C buffer and copy the result into fresh numpy arrays.

How a hand is seen by the kernels (``Ctx``):

* the two wildcards (hearts of the level rank) are taken out and counted (``W``);
* every rank r (rank index 0..12 = 2..A) keeps a *pattern* byte: the 4-bit suit mask of
  its natural cards held at least once (low nibble) and held twice (high nibble);
* a static table lists, for each of the 81 possible patterns, the distinct
  sub-multisets of that rank's cards grouped by size (``SUB_OFF`` / ``SUB_DATA``), so a
  demand "k natural cards of rank r" is a slice of that table and "n cards of rank r"
  is the slices k = n - W .. n, with n - k wildcards making up the rest.

Every combination type is then a cross product of such slices (written straight into
the output), which by construction never produces the same (kind, key, cards) twice,
except for a full house whose pair is the two wildcards: its cards do not depend on
the pair's rank, so it is written once. The ``strongest`` lists drop the readings that
another reading of the same cards beats; the rules for that are at each generator.

Speed: what a leading list costs is mostly mispredicted branches (loops whose length
depends on the hand), not instructions, so the kernels write a few rows more than they
keep where that makes a loop's length the same for every hand: four rows of a rank's
sub-multisets whatever their number (``_rank_rows``, ``_of_rank``), four products per
source (``_widen``, ``_cross``); the rows past the count are room made but not kept.

Bounds: the kernels index only fixed-size C arrays and the move buffer, with indices
bounded by construction (pattern bytes < 256, sub-multiset sizes <= 8, at most 13 ranks,
5 slots, 3 wildcard counts; ``SUB_DATA`` is padded for the four-row reads past a slice;
the option lists of a slot, the combinations of two slots and those of a straight's
first four slots are sized for the most a rank can hold, with room for the rows written
past the count: ``SLOT_ROOM``, ``HEAD_ROOM``, ``PREFIX_ROOM``, ``PAIR_ROOM``), and every
write to the buffer is one ``_emit`` (which grows it or stops) or lies below the room
``_reserve`` returned (a run of counted moves, with the slack its writes need reserved
too; fewer than counted only when the buffer cannot grow, and then ``failed`` is set).
``scripts/memcheck.py`` checks the last under valgrind, with buffers grown to exactly the
room asked for. Every entry point checks its arguments (``check_args``) before any kernel
runs.

The module is written in parts, included below in this order (one compilation unit, so the
kernels inline across them): ``movegen/tables.pxi`` (the read-only tables), ``buffer.pxi``
(the move buffer), ``context.pxi`` (``Ctx``: how a kernel sees a hand), the kernels of each
concern — ``same_rank.pxi`` (singles, pairs, trips, bombs), ``full_houses.pxi``,
``sequences.pxi`` (tubes, plates, straights, straight flushes) —, ``dispatch.pxi`` (a whole
list, the argument checks, classify and reads_as), and the Python face: ``arguments.pxi``,
``results.pxi`` (the ``Moves`` object), ``entry_points.pxi`` and ``batch.pxi``.
"""

cimport cython
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint8_t, uint16_t, uint64_t, int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memmove, memset

cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_popcount64, gf_ctz64

cnp.import_array()

import numpy as np

include "movegen/tables.pxi"
include "movegen/buffer.pxi"
include "movegen/context.pxi"
include "movegen/same_rank.pxi"
include "movegen/full_houses.pxi"
include "movegen/sequences.pxi"
include "movegen/dispatch.pxi"
include "movegen/arguments.pxi"
include "movegen/results.pxi"
include "movegen/entry_points.pxi"
include "movegen/batch.pxi"
