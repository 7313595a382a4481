import datetime as dt

import pytest

from jiancha.errors import ParseError
from jiancha.law.dates import parse_date, search_date


@pytest.mark.parametrize("text, date", [
    ("2019-03-05", dt.date(2019, 3, 5)), ("2019/3/5", dt.date(2019, 3, 5)), ("2019.3.5", dt.date(2019, 3, 5)),
    ("2019年3月5日", dt.date(2019, 3, 5)), ("二〇二一年三月五日", dt.date(2021, 3, 5)),
    ("二零一五年十月十二日", dt.date(2015, 10, 12)), ("二○一八年十月二十六日", dt.date(2018, 10, 26)),
    ("二〇一九年十二月三十一日", dt.date(2019, 12, 31)), (dt.date(2020, 1, 2), dt.date(2020, 1, 2)),
    (dt.datetime(2020, 1, 2, 3, 4), dt.date(2020, 1, 2)),
])
def test_parse_date(text, date):
    assert parse_date(text) == date


@pytest.mark.parametrize("bad", ["yesterday", "2019-02-30", "二〇一九年二月三十日", "2019年13月1日", ""])
def test_parse_date_rejects(bad):
    with pytest.raises(ParseError):
        parse_date(bad)


def test_search_date_finds_the_first_date():
    assert search_date("本院于二〇二三年二月二十八日决定，2023年3月1日送达") == dt.date(2023, 2, 28)
    with pytest.raises(ParseError, match="no date"):
        search_date("本院认为")
