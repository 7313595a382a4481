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

#: Prefecture-level cities, autonomous prefectures and leagues of each province (names without 市 / 州 / 盟),
#: for procuratorates whose names omit the province (``泉州市丰泽区人民检察院``).
_PREFECTURES: dict[str, str] = {
    "河北省": "石家庄 唐山 秦皇岛 邯郸 邢台 保定 张家口 承德 沧州 廊坊 衡水",
    "山西省": "太原 大同 阳泉 长治 晋城 朔州 晋中 运城 忻州 临汾 吕梁",
    "内蒙古自治区": "呼和浩特 包头 乌海 赤峰 通辽 鄂尔多斯 呼伦贝尔 巴彦淖尔 乌兰察布 兴安 锡林郭勒 阿拉善",
    "辽宁省": "沈阳 大连 鞍山 抚顺 本溪 丹东 锦州 营口 阜新 辽阳 盘锦 铁岭 朝阳 葫芦岛",
    "吉林省": "长春 吉林 四平 辽源 通化 白山 松原 白城 延边",
    "黑龙江省": "哈尔滨 齐齐哈尔 鸡西 鹤岗 双鸭山 大庆 伊春 佳木斯 七台河 牡丹江 黑河 绥化 大兴安岭",
    "江苏省": "南京 无锡 徐州 常州 苏州 南通 连云港 淮安 盐城 扬州 镇江 泰州 宿迁",
    "浙江省": "杭州 宁波 温州 嘉兴 湖州 绍兴 金华 衢州 舟山 台州 丽水",
    "安徽省": "合肥 芜湖 蚌埠 淮南 马鞍山 淮北 铜陵 安庆 黄山 滁州 阜阳 宿州 六安 亳州 池州 宣城",
    "福建省": "福州 厦门 莆田 三明 泉州 漳州 南平 龙岩 宁德",
    "江西省": "南昌 景德镇 萍乡 九江 新余 鹰潭 赣州 吉安 宜春 抚州 上饶",
    "山东省": "济南 青岛 淄博 枣庄 东营 烟台 潍坊 济宁 泰安 威海 日照 临沂 德州 聊城 滨州 菏泽",
    "河南省": "郑州 开封 洛阳 平顶山 安阳 鹤壁 新乡 焦作 濮阳 许昌 漯河 三门峡 南阳 商丘 信阳 周口 驻马店 济源",
    "湖北省": "武汉 黄石 十堰 宜昌 襄阳 鄂州 荆门 孝感 荆州 黄冈 咸宁 随州 恩施 仙桃 潜江 天门",
    "湖南省": "长沙 株洲 湘潭 衡阳 邵阳 岳阳 常德 张家界 益阳 郴州 永州 怀化 娄底 湘西",
    "广东省": "广州 韶关 深圳 珠海 汕头 佛山 江门 湛江 茂名 肇庆 惠州 梅州 汕尾 河源 阳江 清远 东莞 中山 潮州 揭阳 云浮",
    "广西壮族自治区": "南宁 柳州 桂林 梧州 北海 防城港 钦州 贵港 玉林 百色 贺州 河池 来宾 崇左",
    "海南省": "海口 三亚 三沙 儋州",
    "四川省": "成都 自贡 攀枝花 泸州 德阳 绵阳 广元 遂宁 内江 乐山 南充 眉山 宜宾 广安 达州 雅安 巴中 资阳 阿坝 甘孜 凉山",
    "贵州省": "贵阳 六盘水 遵义 安顺 毕节 铜仁 黔西南 黔东南 黔南",
    "云南省": "昆明 曲靖 玉溪 保山 昭通 丽江 普洱 临沧 楚雄 红河 文山 西双版纳 大理 德宏 怒江 迪庆",
    "西藏自治区": "拉萨 日喀则 昌都 林芝 山南 那曲 阿里",
    "陕西省": "西安 铜川 宝鸡 咸阳 渭南 延安 汉中 榆林 安康 商洛",
    "甘肃省": "兰州 嘉峪关 金昌 白银 天水 武威 张掖 平凉 酒泉 庆阳 定西 陇南 临夏 甘南",
    "青海省": "西宁 海东 海北 黄南 果洛 玉树 海西",
    "宁夏回族自治区": "银川 石嘴山 吴忠 固原 中卫",
    "新疆维吾尔自治区": "乌鲁木齐 克拉玛依 吐鲁番 哈密 昌吉 博尔塔拉 巴音郭楞 阿克苏 克孜勒苏 喀什 和田 伊犁 塔城 阿勒泰 石河子",
}
#: What follows a city's name in a procuratorate's name (朝阳市, 延边州, 兴安盟, 阿里地区), so that a district
#: of the same name (北京市朝阳区) is not taken for the city.
_CITY_SUFFIXES = frozenset("市州盟地")
#: What follows a city's name in the name of a procuratorate of a special jurisdiction (西安铁路运输检察院,
#: 伊春林区人民检察院, 吉林垦区人民检察院): the city says the province.
_CITY_JURISDICTIONS: tuple[str, ...] = ("铁路运输", "铁路", "林区", "垦区", "农垦", "监狱", "矿区", "油田")
#: City (or prefecture) → province, longest names first so that 大兴安岭 is tried before shorter ones.
CITY_PROVINCE: dict[str, str] = dict(sorted(((city, prov) for prov, cities in _PREFECTURES.items()
                                             for city in cities.split()), key=lambda kv: -len(kv[0])))


def province_of(name: str) -> str | None:
    """Province of a procuratorate named ``name`` (``四川省成都市某某区人民检察院`` → ``四川省``); None if unknown.

    >>> province_of("成都市某某区人民检察院")
    '四川省'
    >>> province_of("西安铁路运输检察院"), province_of("伊春林区人民检察院")
    ('陕西省', '黑龙江省')
    >>> province_of("某某县人民检察院") is None
    True

    A military procuratorate is placed by its command's region (``中国人民解放军西藏军区军事检察院`` → 西藏自治区).
    """
    s = name.strip().removeprefix("中国人民解放军").removeprefix("中国人民武装警察部队").removeprefix("武警")
    for full in PROVINCES:
        if s.startswith(full):
            return full
    for short, full in PROVINCE_SHORT.items():
        if s.startswith(short):
            return full
    for city, full in CITY_PROVINCE.items():
        rest = s[len(city):]
        if s.startswith(city) and (rest[:1] in _CITY_SUFFIXES or rest.startswith(_CITY_JURISDICTIONS)):
            return full
    return None


def province_in_text(text: str) -> str | None:
    """The province a text names most often in full (``福建省``, ``北京市``, ``广西壮族自治区``), else through a
    large city (``CITY_PROVINCE``); ties go to the first named. For a procuratorate whose name omits its province
    (``丰泽区人民检察院``), the addresses and bodies in its document say where it is.

    >>> province_in_text("户籍地福建省泉州市，住福建省晋江市。案发于广东省深圳市。")
    '福建省'
    >>> province_in_text("住成都市某某区"), province_in_text("担任延边某某商贸有限公司会计")
    ('四川省', '吉林省')
    >>> province_of("朝阳区人民检察院") is None
    True
    """
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for full in PROVINCES:
        for hit in _finditer(text, full):
            counts[full] = counts.get(full, 0) + 1
            first.setdefault(full, hit)
    if not counts:
        for city, full in CITY_PROVINCE.items():
            for hit in _finditer(text, city + "市") + _finditer(text, city + "州"):
                counts[full] = counts.get(full, 0) + 1
                first[full] = min(first.get(full, hit), hit)
    if not counts:   # a bare city name in a body's name (延边某某商贸有限公司, 延边农商银行)
        for city, full in CITY_PROVINCE.items():
            for hit in _finditer(text, city) if len(city) >= 2 else ():
                counts[full] = counts.get(full, 0) + 1
                first[full] = min(first.get(full, hit), hit)
    if not counts:
        return None
    return min(counts, key=lambda p: (-counts[p], first[p]))


def _finditer(text: str, word: str) -> list[int]:
    out, i = [], text.find(word)
    while i >= 0:
        out.append(i)
        i = text.find(word, i + len(word))
    return out
