"""Chinese surnames for de-identification (the common single surnames and the usual compound ones)."""

from __future__ import annotations

#: Compound surnames, checked before single ones.
COMPOUND_SURNAMES: tuple[str, ...] = (
    "欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "尉迟", "公孙", "慕容", "令狐", "长孙", "宇文", "司徒", "夏侯",
    "端木", "轩辕", "独孤", "南宫", "西门", "呼延", "澹台", "百里", "钟离", "万俟", "闻人", "申屠", "太史", "乐正",
    "濮阳", "公冶", "赫连", "公羊", "淳于", "太叔", "仲孙", "司寇", "拓跋", "左丘", "东郭", "梁丘", "第五", "段干",
    "亓官", "巫马", "公西", "漆雕", "壤驷", "公良", "宰父", "谷梁", "夹谷", "南门", "羊舌", "微生", "东门", "公仪",
)

#: Common single-character surnames (about the 200 most frequent).
SINGLE_SURNAMES: frozenset[str] = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜"
    "崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文"
    "牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲"
    "翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫"
    "米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
    # less common surnames, regional ones (Cantonese, Hui, Sichuan …) and rare ones
    "冼区麦岑禤湛谯税喇妥马蒯笪郄殳佴綦郇粘钭亓逄厍蔺滑仝鄢郜訾阚缑冀揭隗宓琚斛晁仉眭幸庹战那哈达么"
    "谌郦郗暴亢酆糜裘鞠荆蓟霍寿宦璩濮扈郏郯邰郁晏井盖益桓甘上官伏相查楚闻栗逯蒿郜覃弓勾帅邸皮茹"
    # from the Hundred Family Surnames, leaving out those that are also common words (危, 支, 权, 索, 暨 …)
    "岩玉朴玄太具满强操阙隆蔚昝禹芮羿储汲邴牧蓬戎祖厉韶鄂赖胥莘堵雍浦阎慕夔乜芈淦隽鄞佀傅萧狄贝茅贲杭嵇荀钮廉奚竺庾匡惠弘凤"
)

#: Surnames of the Hundred Family Surnames that are also the first character of common words (权利, 危险, 支付,
#: 国家, 水泥): never taken as a surname on their own, only right after a word for a person and where the
#: segmenter reads no word there. Those that are mostly function words (从, 后, 都, 经, 能, 别, 终, 须) are left out.
WORDLIKE_SURNAMES: frozenset[str] = frozenset(
    "权危支索暨原信花水云昌平计谈封松富乌巴山班仰秋伊束薄印宿怀籍屠阴苍双贡劳扶宰通燕充习鱼容戈居衡步国"
    "广禄东沃利越融空毋养丰巢红元乐"
    # Hui and other surnames of the north-west and south-west (虎, 纳, 海, 撒, 锁, 拜, 者, 普)
    "虎纳海撒锁拜者普"
    # and others that open common words (门口, 门店)
    "门"
)


def surname_of(name: str) -> str | None:
    """The surname of ``name`` (compound first), or None if it does not start with a known surname."""
    for s in COMPOUND_SURNAMES:
        if name.startswith(s) and len(name) > len(s):
            return s
    if name and name[0] in SINGLE_SURNAMES and len(name) > 1:
        return name[0]
    return None

#: Characters of transliterated names (the usual renderings of Uyghur, Kazakh, Mongolian, Tibetan, Russian,
#: English and other names, as in Xinhua's transliteration tables): a part of a name written with a middle dot
#: runs over them (古丽娜尔·阿不都拉) and ends at one outside them (吐尔逊担任, 艾山 | 翻译).
TRANSLIT_CHARS: frozenset[str] = frozenset(
    "丁万不丘东丰丹丽乌乐乔买于云亚亨京什仁代伊伍休伦伯佐何佩依侯保克兰其兹内冈凡凯切列则利别力加努劳勃勒包华"
    "卓南博卜卡卢厄历古可史叶合吉吐吾呼和哈唐喀嘉嘎因图圣坎坦埃基堆塔塞增夏多大夫央夸奇奈奎契奥如妮姆威娃娅娜"
    "孔孜孟季宁守安宗宝宾密富察尔尚尤尼居山巴布希帕平库庞康廷弗强彭彻彼得德怀恩恰慕戈成戴扎托扬拉拔拜拥捷措提"
    "敖敦文斐斯方日旦旺昂昆昌明普曲曼朗朝木本杜来杰松林查柯柳根格桑梅森楚次欧比毕毛汉汗江汤沃沙法波泰泽洛洪派"
    "海温潘烈热爱牙特猜玛珀珊珍珠班琪琳琴琼瑞瑟璐瓜瓦甘甫申登白皮盖祖福科穆第简米索约纳纽维罕罗美翰考耶聂肯胡"
    "腊舍舒艾芒芙芝芬芭苏若英范茨荣莉莎莫莱莲菲萨蒂蒙蓬蕾薇衣西觉詹让诺谢豪贝贡贵费贾赛赫辛边达迈迪逊通道那邦"
    "都里金钦锡门阿隆雅雷霍韦音顿颂额马高鲁鲍麦黑默黛齐龙"
)
