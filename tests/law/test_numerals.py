import cn2an
import pytest

from jiancha.errors import ParseError
from jiancha.law.numerals import MAX_NUMBER, int_to_cn, parse_number


@pytest.mark.parametrize("n, cn", [
    (1, "一"), (10, "十"), (11, "十一"), (16, "十六"), (20, "二十"), (100, "一百"), (101, "一百零一"),
    (105, "一百零五"), (110, "一百一十"), (116, "一百一十六"), (264, "二百六十四"), (1000, "一千"),
    (1001, "一千零一"), (1010, "一千零一十"), (1100, "一千一百"), (2018, "二千零一十八"), (9999, "九千九百九十九"),
])
def test_int_to_cn_named_cases(n, cn):
    assert int_to_cn(n) == cn
    assert parse_number(cn) == n


def test_round_trip_exhaustive_and_agrees_with_cn2an():
    for n in range(1, MAX_NUMBER + 1):
        s = int_to_cn(n)
        assert parse_number(s) == n
        assert s == cn2an.an2cn(n), n


@pytest.mark.parametrize("s, n", [
    ("一十六", 16), ("两百", 200), ("两千零二十", 2020), ("二〇一八", 2018), ("一〇五", 105), ("１７７", 177),
    ("177", 177), ("０１", 1), ("十", 10), ("一百零五", 105), ("三百零八", 308), ("1百", 100),
])
def test_parse_number_variants(s, n):
    assert parse_number(s) == n


@pytest.mark.parametrize("bad", ["", "零", "〇", "一万", "10000", "0", "百十", "abc", "十十", "二十三十", "一百二百"])
def test_parse_number_rejects(bad):
    with pytest.raises(ParseError):
        parse_number(bad)


@pytest.mark.parametrize("bad", [0, 10000, -1, True, 1.0])
def test_int_to_cn_rejects(bad):
    with pytest.raises(ValueError):
        int_to_cn(bad)
