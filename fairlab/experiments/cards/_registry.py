"""The scorecard's protocols, by name: the one place that lists them.

To add a protocol, write its room (a module beside this one: its name, its unit, its
published rows, its k and its :class:`~fairlab.experiments.cards._protocol._Protocol`) and list
it here.
"""

from . import _de_diego_a, _de_diego_b, _kleindessner, _kleindessner_tradeoffs, _perez_suay_dr

#: The protocols, in the order a card prints them.
_REGISTRY = {room.PROTOCOL.name: room.PROTOCOL
             for room in (_kleindessner, _de_diego_a, _de_diego_b, _perez_suay_dr,
                          _kleindessner_tradeoffs)}
#: The protocols a method can be put through, by name.
PROTOCOLS = tuple(_REGISTRY)
