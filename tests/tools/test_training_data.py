"""`tools.training.data.load_weighted_specs`: the trainers' `FOLDER[:even|odd][@N]` sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.training.data import load_weighted_specs

DEV = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "dice-real-dev"


def test_a_folder_named_with_a_weight_gives_each_of_its_images_that_weight() -> None:
    records, copies = load_weighted_specs([f"{DEV}:odd@3", f"{DEV}:even"], 2)
    odd = len(records) // 2
    assert records[0].path.name < records[1].path.name, "each part keeps the folder's sorted order"
    assert copies[:odd] == [3] * odd, "the odd half was named @3"
    assert set(copies[odd:]) == {2}, "the even half takes the default"
    assert {r.path for r in records[:odd]}.isdisjoint(r.path for r in records[odd:])


@pytest.mark.parametrize("spec", ["@x", "@0", "@", "@1.5"])
def test_a_weight_that_is_no_whole_number_of_copies_is_refused_with_the_spec(spec: str) -> None:
    with pytest.raises(ValueError, match="whole number of copies") as refused:
        load_weighted_specs([f"{DEV}{spec}"], 1)
    assert str(DEV) in str(refused.value)
