"""A zone cut in a message says so, with the count left out (issue 30: no silent cut)."""

from ruleproof.properties.shown import top


def test_a_cut_pile_names_what_it_left_out() -> None:
    assert top(["5C", "8C", "AD", "AH", "TC"]) == ["… 1 more", "8C", "AD", "AH", "TC"]
    assert top(["8C", "AD", "AH", "TC"]) == ["8C", "AD", "AH", "TC"]
    assert top([]) == []
    assert top(list(range(10)), 2) == ["… 8 more", 8, 9]
