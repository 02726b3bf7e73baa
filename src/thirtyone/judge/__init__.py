"""The judge of good play: what the `hard` bot, the hint, the review and ``analyze`` read.

Two parts, both at play time with numpy alone (DESIGN.md, "The judge"): the exact value of a last
turn after a knock (:mod:`thirtyone.judge.lastturn`), and the learned network's policy and action
values (:mod:`thirtyone.judge.network`). It knows views and action ids; nothing here imports a
face, an agent environment or a training library.
"""
