"""Amounts, quantities, penalties and circumstances parsed from Chinese legal text (jiancha.law)."""

from __future__ import annotations

import pytest

from jiancha.law.amounts import log_distance, parse_amounts, parse_quantities
from jiancha.law.circumstances import find_circumstances
from jiancha.law.penalties import parse_prison_months, render_term, term_band


def test_amounts_in_yuan():
    assert parse_amounts("窃取人民币3,723元，另有价值1.2万元的手机及5000余元现金") == [3723.0, 12000.0, 5000.0]
    assert parse_amounts("窃取现金3,000元及价值1.5万元的手机，另有元宝") == [3000.0, 15000.0]
    assert parse_amounts("骗取3，500元") == [3500.0]
    assert parse_amounts("无金额") == []


def test_quantities_in_grams_and_log_distance():
    assert parse_quantities("海洛因5.2克、甲基苯丙胺1.5千克及大麻2公斤") == [5.2, 1500.0, 2000.0]
    assert parse_quantities("无") == []
    assert log_distance(9.0, 99.0) == pytest.approx(1.0)
    assert log_distance(None, 5.0) is None


def test_prison_terms_and_bands():
    assert parse_prison_months("判处有期徒刑三年六个月，并处罚金人民币五千元") == 42.0
    assert parse_prison_months("判处有期徒刑十个月；犯盗窃罪判处有期徒刑二年") == 24.0
    assert parse_prison_months("判处有期徒刑2年") == 24.0
    assert parse_prison_months("判处拘役四个月，缓刑六个月") == 0.0
    assert parse_prison_months("判处无期徒刑") == 600.0
    assert parse_prison_months("驳回上诉") is None
    assert [term_band(m) for m in (None, 0.0, 35.0, 36.0, 120.0, 121.0)] == [-1, 0, 1, 2, 2, 3]
    assert [render_term(m) for m in (None, 0.0, 8.0, 600.0)] == ["未知", "非监禁刑", "有期徒刑8个月", "无期徒刑或死刑"]


def test_circumstances():
    assert find_circumstances("被告人系累犯，到案后自首") == frozenset({"累犯", "自首"})
    assert find_circumstances("取得谅解并退赃，系未成年人") == frozenset({"谅解", "退赃", "未成年"})
