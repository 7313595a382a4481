"""Provincial-level divisions of mainland China and the short forms under which procuratorates name them."""

from __future__ import annotations

#: Full names of the 31 provincial-level divisions (PDP-Bench ``meta.province`` values).
PROVINCES: tuple[str, ...] = (
    "北京市", "天津市", "上海市", "重庆市",
    "河北省", "山西省", "辽宁省", "吉林省", "黑龙江省", "江苏省", "浙江省", "安徽省", "福建省", "江西省",
    "山东省", "河南省", "湖北省", "湖南省", "广东省", "海南省", "四川省", "贵州省", "云南省", "陕西省",
    "甘肃省", "青海省",
    "内蒙古自治区", "广西壮族自治区", "西藏自治区", "宁夏回族自治区", "新疆维吾尔自治区",
)

#: Short form → full name (浙江 → 浙江省, 内蒙古 → 内蒙古自治区, 新疆 → 新疆维吾尔自治区).
PROVINCE_SHORT: dict[str, str] = {
    p.removesuffix("省").removesuffix("市").split("壮族")[0].split("回族")[0].split("维吾尔")[0]
    .removesuffix("自治区"): p
    for p in PROVINCES
}

#: Provincial capitals and other large cities whose procuratorates often omit the province.
CITY_PROVINCE: dict[str, str] = {
    "石家庄": "河北省", "太原": "山西省", "沈阳": "辽宁省", "大连": "辽宁省", "长春": "吉林省",
    "哈尔滨": "黑龙江省", "南京": "江苏省", "苏州": "江苏省", "无锡": "江苏省", "杭州": "浙江省", "宁波": "浙江省",
    "温州": "浙江省", "合肥": "安徽省", "福州": "福建省", "厦门": "福建省", "南昌": "江西省", "济南": "山东省",
    "青岛": "山东省", "郑州": "河南省", "武汉": "湖北省", "长沙": "湖南省", "广州": "广东省", "深圳": "广东省",
    "东莞": "广东省", "佛山": "广东省", "海口": "海南省", "三亚": "海南省", "成都": "四川省", "贵阳": "贵州省",
    "昆明": "云南省", "西安": "陕西省", "兰州": "甘肃省", "西宁": "青海省", "呼和浩特": "内蒙古自治区",
    "包头": "内蒙古自治区", "南宁": "广西壮族自治区", "拉萨": "西藏自治区", "银川": "宁夏回族自治区",
    "乌鲁木齐": "新疆维吾尔自治区",
}


def province_of(name: str) -> str | None:
    """Province of a procuratorate named ``name`` (``四川省成都市某某区人民检察院`` → ``四川省``); None if unknown.

    >>> province_of("成都市某某区人民检察院")
    '四川省'
    >>> province_of("某某县人民检察院") is None
    True
    """
    s = name.strip()
    for full in PROVINCES:
        if s.startswith(full):
            return full
    for short, full in PROVINCE_SHORT.items():
        if s.startswith(short):
            return full
    for city, full in CITY_PROVINCE.items():
        if s.startswith(city):
            return full
    return None
