"""Chinese phrases and patterns of prosecutorial documents (起诉书 / 不起诉决定书), defined once.

Section markers, lead-ins, forms of address, decision wording and leakage phrases used by ``jiancha.corpus``
(segmentation, labelling, refinement checks). Strings are the documents' own wording; every regex is compiled
here and named for what it recognises.
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------- document types (from the title line)
#: Titles of the prosecutorial documents the builder accepts, mapped to a document-type id.
PROSECUTORIAL_TITLES: dict[str, str] = {
    "起诉书": "indictment",
    "不起诉决定书": "non_prosecution",
}
#: Kinds of indictment named before the title (``刑事附带民事公益诉讼起诉书``): still an indictment.
INDICTMENT_KINDS: tuple[str, ...] = ("刑事附带民事公益诉讼", "刑事附带民事", "附带民事公益诉讼", "附带民事", "刑事")
#: Titles of documents that look similar but are not prosecutorial decisions (rejected with this reason).
OTHER_DOCUMENT_TITLES: tuple[str, ...] = (
    "刑事判决书", "刑事裁定书", "刑事附带民事判决书", "民事判决书", "判决书", "裁定书", "调解书",
    "起诉意见书", "逮捕决定书", "不批准逮捕决定书", "抗诉书", "检察建议书", "通知书",
)
#: A procuratorate's name (header and signature lines end with it).
PROCURATORATE = "人民检察院"
#: Procuratorates of the special jurisdictions drop 人民 (西安铁路运输检察院, 某某铁路运输检察分院,
#: 中国人民解放军西藏军区军事检察院).
PROCURATORATE_NAME_RE = re.compile(r"^[\u4e00-\u9fff某]{2,40}(?:" + PROCURATORATE + r"|运输检察院|运输检察分院|军事检察院)"
                                   r"(?:第[一二三四五六七八九十某]+分院)?$")

# ---------------------------------------------------------------- forms of address
#: How the documents address the suspect; the first four leak the decision (PDP-Bench rewrites them).
SUSPECT = "犯罪嫌疑人"
SUSPECT_UNIT = "犯罪嫌疑单位"
NON_PROSECUTED = "被不起诉人"
NON_PROSECUTED_UNIT = "被不起诉单位"
DEFENDANT = "被告人"
DEFENDANT_UNIT = "被告单位"
#: Where the prosecution's charges start in a judgment (公诉机关指控被告人…犯X罪); charges named earlier in the
#: text are usually prior convictions (曾因犯盗窃罪被判处…).
INDICTMENT_MARKER = "指控"
#: Where a text attributes a charge to the suspect: the indictment, or 涉嫌 (suspected of) in a procedure or a
#: search query; a charge word elsewhere in the facts (电信诈骗资金, 盗窃所得) is no such statement.
CHARGE_STATEMENT_MARKERS: tuple[str, ...] = (INDICTMENT_MARKER, "涉嫌")
#: Leaking form of address → neutral replacement (units get 犯罪嫌疑单位, persons 犯罪嫌疑人).
LEAKING_ADDRESSES: dict[str, str] = {
    NON_PROSECUTED_UNIT: SUSPECT_UNIT,
    NON_PROSECUTED: SUSPECT,
    DEFENDANT_UNIT: SUSPECT_UNIT,
    DEFENDANT: SUSPECT,
}
SUSPECT_ADDRESSES: tuple[str, ...] = (NON_PROSECUTED_UNIT, NON_PROSECUTED, DEFENDANT_UNIT, DEFENDANT,
                                     SUSPECT_UNIT, SUSPECT)
LEAKING_ADDRESS_RE = re.compile("|".join(map(re.escape, LEAKING_ADDRESSES)))
#: A suspect's paragraph in the person-information block starts with a form of address and the name.
SUSPECT_HEADER_RE = re.compile(r"^(?P<address>" + "|".join(SUSPECT_ADDRESSES) + r")(?!的|基本情况|情况[:：]|[:：]?$)"
                               r"[:：]?(?P<name>[^，,（(：:\s]{1,40})")
#: A heading over the person-information block (``被不起诉人的基本情况：``, ``被告人基本情况``): no person's paragraph.
PERSON_HEADING_RE = re.compile(r"^(?:" + "|".join(SUSPECT_ADDRESSES) + r")(?:的)?(?:基本)?情况[:：]?$")
#: Representatives of a suspect unit; their lines follow the unit's paragraph (``法定代表人王某，男，…``).
REPRESENTATIVES: tuple[str, ...] = ("诉讼代表人", "法定代表人")
REPRESENTATIVE_HEADER_RE = re.compile(r"^(?P<address>" + "|".join(REPRESENTATIVES) + r")[:：]?(?P<name>[^，,（(：:\s]{1,40})")
#: Characters that end the name in a person header (``犯罪嫌疑人张三，男，…``, ``被告人李四（曾用名…）``).
HEADER_NAME_END = "，,（("
#: Other names of a person: ``（曾用名张小三）``, ``别名李四，``, nicknames ``绰号“黑仔”``, ``外号阿彪，``, ``绰号“Mike”``.
#: Peoples whose members often carry a name in their own language beside the Chinese one (``杨务榜（苗名榜九）``).
ETHNIC_NAME_PEOPLES: tuple[str, ...] = (
    "苗", "彝", "藏", "蒙古", "蒙", "傣", "壮", "侗", "瑶", "哈尼", "景颇", "佤", "傈僳", "维吾尔", "维", "哈萨克", "朝鲜",
    "布依", "纳西", "羌", "黎", "独龙", "怒", "基诺", "德昂", "拉祜", "柯尔克孜", "塔吉克", "鄂温克", "达斡尔", "水", "白",
    "鄂伦春", "赫哲", "锡伯", "满", "土家", "乌孜别克", "塔塔尔", "裕固", "撒拉", "东乡", "保安", "土", "仡佬", "毛南",
    "仫佬", "京", "畲", "门巴", "珞巴", "普米", "阿昌", "布朗", "汉", "本民族", "民族", "经", "法",
)
NAME_ALIAS_RE = re.compile(r"(?:曾用名|别名|又名|原名|本名|艺名|化名|绰号|外号|小名|乳名|网名|诨号|"
                           r"(?<=[（(])(?:" + "|".join(ETHNIC_NAME_PEOPLES) + r")族?(?:语)?名)"
                           r"(?:为|是|叫)?[:：]?[“\"「『‘]?"
                           r"(?P<name>[\u4e00-\u9fff]{2,8}|[A-Za-z][A-Za-z .'\-]{0,30}[A-Za-z])(?=[”\"」』’]|[）)，,、；;。])")
#: A name in Latin letters (a foreigner's: ``OKONKWO CHIDI EMEKA``, ``Smith, John`` is not one: the comma ends it).
LATIN_NAME_RE = re.compile(r"[A-Za-zÀ-ÖØ-öø-ž][A-Za-zÀ-ÖØ-öø-ž.'\- ]{0,60}[A-Za-zÀ-ÖØ-öø-ž]")
#: A foreigner's name as written in the original script, in brackets right after the Chinese transliteration in
#: a person header (``被告人颂猜·蓬玛（SOMCHAI PHROMMA），男``) or after 英文名 / 外文名.
LATIN_ALIAS_RE = re.compile(r"[（(](?:(?:英文|外文|[\u4e00-\u9fff]{1,3}(?:文|语)?)(?:姓)?名[:：]?)?(?P<name>" + LATIN_NAME_RE.pattern + r")(?=[）)，,；;])|"
                            r"(?:英文|外文)(?:姓)?名[:：]?(?P<name2>" + LATIN_NAME_RE.pattern + r")(?=[）)，,；;。])")
#: Defence counsel and agents; their lines are removed from person_info.
COUNSEL_TITLES: tuple[str, ...] = ("辩护人", "辩护律师", "诉讼代理人", "委托代理人", "委托诉讼代理人", "法律援助律师")
#: A counsel's line: the title first (辩护人王某，…), or the person it defends first (犯罪嫌疑人张某的辩护律师王某).
COUNSEL_LINE_RE = re.compile(r"^(?:指定)?(?:" + "|".join(COUNSEL_TITLES) + ")|^(?:" + "|".join(SUSPECT_ADDRESSES)
                             + r")[^，,。：:]{1,20}?的(?:指定)?(?:" + "|".join(COUNSEL_TITLES) + ")")
#: Words after which the name of a natural person follows (de-identification looks for names after them).
PERSON_CUES: tuple[str, ...] = (
    NON_PROSECUTED, DEFENDANT, SUSPECT, "被害人", "受害人", "证人", *COUNSEL_TITLES, "法定代理人",
    *REPRESENTATIVES, "同案人", "同案犯", "报案人", "举报人", "当事人", "介绍人",
    "之子", "之女", "之妻", "之夫", "之父", "之母", "其妻", "其夫", "其子", "其女", "其父", "其母",
    "见证人", "鉴定人", "翻译人员", "检察官助理", "检察官", "检察员", "书记员",
    # bystanders and people named by their occupation or tie to someone (路人祁连, 农场职工明秋菊, 其同事黄海)
    "路人", "行人", "路过的", "目击者", "知情人", "村民", "职工", "员工", "工人", "工友", "店主", "店员",
    "摊主", "老板", "司机", "保安", "服务员", "收银员", "网管", "业主", "房东", "租客", "车主", "乘客", "商户",
    "同事", "朋友", "邻居", "室友", "网友", "男友", "女友", "前妻", "前夫", "丈夫", "妻子", "表弟", "表哥", "表姐",
    "表妹", "堂弟", "堂兄", "堂哥", "侄子", "外甥", "岳父", "岳母", "舅舅", "同学", "医生", "护士", "值班律师", "律师",
    "旅客", "游客", "顾客", "在场的", "列车员", "乘务员", "售票员", "收费员", "值班员", "检察长", "副检察长", "实际控制人", "负责人", "股东", "出纳", "护林员", "安全员", "管理员", "业务员",
    "驾驶员", "快递员", "外卖员", "售货员", "营业员", "保管员", "仓管员", "调度员", "保洁员", "工作人员",
    "供货商", "供应商", "经销商", "承包商", "承包人", "包工头", "中间人", "货主", "买家", "卖家", "客户",
    "医师", "法医", "老师", "教师", "侦查员", "村干部", "经营者", "商人", "牧民", "农民", "渔民", "居民", "群众",
    "语翻译", "文翻译",
    # titles before a name (村民小组长岩某, 派出所所长王某, 公司总经理李某)
    "组长", "村长", "主任", "书记", "队长", "站长", "所长", "经理", "会计", "厂长", "校长", "场长", "董事长",
)
#: What de-identification writes for a name: surname + 某 / 某某, 某甲 / 某乙 … for shared surnames.
PSEUDONYM_MARK = "某"
PSEUDONYM_SUFFIXES = "甲乙丙丁戊己庚辛壬癸"

# ---------------------------------------------------------------- section markers
#: First line of the procedure section.
PROCEDURE_START_RE = re.compile(
    r"^(?:本案由|本案系|本案经|本案于|.{1,60}?一案[，,]?(?:由|经|于)|"
    r"[^。；]{0,80}?(?:侦查终结|调查终结|移送(?:本院)?(?:审查)?起诉|移送本院审查))"
)
#: Words of procedural events: a paragraph after the first procedure paragraph that holds one continues the
#: procedure (受理 / 告知 / 讯问 / 退回补充侦查 / 延长 …) rather than starting the facts.
PROCEDURAL_EVENT_RE = re.compile(
    r"^(?:本院|期间|其间|此后|后|因|经|于|20\d\d年|\d{4}年|二[〇零○]).{0,40}?(?:受理|告知|讯问|听取|审查了?全部|"
    r"退回[^，。]{0,12}补充侦查|补充侦查|延长|审查起诉期限|重新计算|移送|改变管辖|指定管辖|中止审查|恢复审查)"
)
#: The procuratorate's own findings, e.g. 经依法审查查明 / 本院审查查明 / 经审查认定 / 经本院审查并退回补充侦查，本院审查认定.
#: (Not ``经审查，认定某某侵占数额的依据主要为…``: what the finding rests on is the procuratorate's doubt.)
FACT_LEAD_IN_RE = re.compile(
    r"^(?:经)?(?:本院)?(?:依法)?(?:经)?(?:审查|审理)(?:并[^：:。]{0,20}?)?[，,]?(?:本院)?(?:依法)?(?:审查)?"
    r"(?:查明|认定)(?![^，。：:；]{0,24}?的(?:依据|证据))(?:如下)?[：:，,]?"
)
#: What is left of an own-findings line that only says they agree with the investigators' version
#: (经本院依法审查查明 | 的事实与侦查机关认定的事实一致。).
FINDINGS_AGREE_RE = re.compile(r"^(?:的)?(?:案件|犯罪)?事实与.{0,24}?(?:认定|指控|移送)的(?:犯罪)?事实(?:一致|相同|基本一致|相符)[。；;]?$")
#: The investigating body's version, which some documents give before the procuratorate's own findings.
POLICE_VERSION_RE = re.compile(
    r"^(?:经)?[^，。：:]{0,30}?(?:公安局|公安分局|分局|公安厅|公安部|公安处|派出所|公安机关|侦查机关|调查机关|监察委员会|森林公安局|缉私局|"
    r"反贪污贿赂局|反贪局|反渎职侵权局|职务犯罪侦查局|监狱|看守所|国家安全局|国家安全厅|国家安全机关|海警局|保卫部门)"
    r"(?:侦查|调查)?(?:(?:[^，。：:]{0,6}?|以[^，。：:]{1,40}?罪)移送(?:本院)?(?:审查)?(?:起诉)?)?(?:时|中|的)?"
    r"(?:认定|查明|指控|认为|称)[：:，,]?|"
    r"^[^，。：:]{0,30}?(?:移送)?(?:起诉意见书|移送审查起诉意见书)(?:中|所)?(?:认定|指控|称|查明)[：:，,]?|"
    # a unit of a public-security bureau (上海市公安局经济犯罪侦查总队), only before the transfer: 经…交警大队认定，
    # 被告人负事故全部责任 is a finding of the facts
    r"^[^，。：:]{0,30}?(?:总队|支队|大队)(?:以[^，。：:]{1,40}?罪)?移送(?:本院)?(?:审查)?(?:起诉)?(?:时|中|的)?"
    r"(?:认定|查明|指控|认为|称)[：:，,]?"
)
# ---------------------------------------------------------------- the police's 起诉意见书
#: Title of the police's recommendation to prosecute, the document a procuratorate reviews a case from.
RECOMMENDATION_TITLE = "起诉意见书"
#: The police speaking of themselves (我局 / 本局 / 我分局 / 我队 …).
POLICE_SELF = r"(?:我|本)(?:市|县|区)?(?:局|分局|处|队|大队|支队|所|署)"
#: A person paragraph names a gender, birth, identity number or (a unit) its seat near its start.
PERSON_PARTICULARS_RE = re.compile(r"^[^。]{0,40}?(?:[，,](?:男|女)[，,。]|出生|身份证|公民身份|住所地|统一社会信用代码|"
                                   r"法定代表人)")
#: First paragraph of the police's procedure: how the case came to them (…一案，由被害人…报案至我局 / 我局在工作中
#: 发现 / 群众举报), then 立案 and the measures taken.
POLICE_PROCEDURE_START_RE = re.compile(
    r"^(?:.{1,60}?一案[，,]?(?:由|系|经|是|于\d{4}年)|(?:\d{4}年[^，。]{0,12}[，,]?)?" + POLICE_SELF +
    r"|[^。]{0,40}?(?:报案|报警|举报|控告|移送至?" + POLICE_SELF + r"|交办))"
)
#: Where the police's findings start (经依法侦查查明： / 经侦查，现已查明： / 现已查明： / 经查：), at a line's start or after
#: a sentence ends within the procedure paragraph.
POLICE_FACT_LEAD_IN_RE = re.compile(
    r"(?:^|(?<=[。；;]))(?:经(?:" + POLICE_SELF + r")?(?:依法)?(?:侦查|侦办|调查|审查)?[，,]?(?:现已?)?(?:查明|认定)|"
    r"现已?查明|经查)(?:如下)?[：:，,]"
)
#: The police's conclusion after the facts: 综上所述 / 其行为已触犯《刑法》… / 特将本案移送审查起诉 / 此致.
POLICE_CONCLUSION_RE = re.compile(r"^综上|其行为(?:已)?(?:触犯|构成)|移送[^。]{0,6}审查起诉|^此致")
#: Words of a doubt about the evidence (前后矛盾, 不能证实, 无法查清, 证据不足 …): a paragraph of the procuratorate's
#: examination that holds one is part of its reasoning, one that does not states a finding of fact.
DOUBT_RE = re.compile(r"矛盾|不能|无法|不足|未能|不一致|前后不一|不清|不符|疑|难以|尚未|否认|翻供|不予采信|缺失|不明")
#: Start of the reasoning and decision.
#: The procuratorate examining (本院经审查 / 经本院依法审查 / 经审查 / 本院审查), possibly with what it did besides
#: (并两次退回补充侦查后 / ，并经退回补充侦查， / 并听取被害人家属意见后 / 并退回补充侦查一次，), then 认为: the
#: clause after 并 holds no one else's view (公安机关…认为) and no findings (认定 / 查明 open the facts); the body
#: a case went back to (退回侦查机关补充侦查) is no one speaking.
_EXAMINED = r"(?:经)?(?:本院)?(?:经)?(?:依法)?(?:审查|审理)(?:后)?"
_EXAMINED_ALSO = (r"(?:[，,]?\s*(?:并|又|且)(?:退回[^。；：:，,]{0,16}?补充(?:侦查|调查)|"
                  r"(?!认定|查明|机关|公安|监察|法院)[^。；：:]){0,30}?)?")
#: The case sent back for further investigation, then the procuratorate's view (本院经两次退回补充侦查，仍然认为).
_SENT_BACK = r"(?:本院)?经?(?:[一二两三]次)?退回[^，。；：:]{0,16}?补充(?:侦查|调查)(?:后)?"
REASONING_START_RE = re.compile(
    r"^(?:综上[所述]*[，,]?\s*)?(?:本院认为|检察机关(?:经审查)?认为|"
    r"(?:" + _EXAMINED + _EXAMINED_ALSO + "|" + _SENT_BACK + r")[，,]?\s*(?:本院)?(?:仍然|依然|仍)?(?<![人方])认为)"
)
#: Lines after the reasoning and decision: appeal notices, the sealing of a minor's criminal record, salutation,
#: signatures, attachments.
REASONING_END_RE = re.compile(
    r"^(?:[^，。]{0,24}如不服本决定|本决定书?(?:宣布|送达)后|[^。]{0,80}犯罪记录予以封存|此致|附[：:]?$|附[：:]|(?:代理|承办|员额)?检察(?:员|官)[：:\s]|"
    r"(?:代理|承办|员额)?检察(?:员|官)(?:[\u4e00-\u9fff某]{1,4})?$|书记员|[（(【\[]?院印[）)】\]]?$)"
)
#: A signature and the date run together on one line by a PDF's text layer (``代理检察员衣晓彤二〇一三年十二月九日``).
SIGNATURE_THEN_DATE_RE = re.compile(r"^(?P<sig>(?:代理|承办|员额)?(?:检察员|检察官|书记员|检察官助理)[:：]?\s*[\u4e00-\u9fff·某]{1,6}?)\s*"
                                    r"(?P<date>[0-9〇零○Ｏ一二三四五六七八九]{4}\s*年.{1,8}日)$")
#: Page furniture inside the text of a printed or scanned document: page numbers (第 1 页 共 2 页, - 2 -, 1/2),
#: the seal mark (（院印）), rules (————). Whole lines are dropped; inline page marks are cut out.
PAGE_FURNITURE_RE = re.compile(
    r"^(?:第\s*\d+\s*页[\s,，/]*共\s*\d+\s*页|共\s*\d+\s*页[\s,，/]*第\s*\d+\s*页|[-—－]?\s*\d{1,3}\s*[-—－]?|"
    r"\d{1,3}\s*/\s*\d{1,3}|[（(【\[]\s*院\s*印\s*[）)】\]]|[（(]\s*(?:公章|盖章|印章)\s*[）)]|[—\-_=─━－＿]{6,})$"
)
#: A bare page number (``3``, ``- 3 -``): page furniture in text without pages, text on a PDF page except at its
#: top or bottom (a table cell ``200``).
PAGE_NUMBER_LINE_RE = re.compile(r"[-—－]?\s*\d{1,3}\s*[-—－]?")
#: A numbered heading over a section of the document (``一、被不起诉人基本情况``, ``三、侦查机关认定的事实``,
#: ``四、不起诉的理由``): short, without punctuation, naming a part of a decision. Not an item of a list, which says
#: something (``一、被不起诉人王某的供述前后矛盾；``).
SECTION_HEADING_RE = re.compile(r"^[一二三四五六七八九十]{1,2}[、．.]\s*"
                                # not one that names whose facts follow (一、犯罪嫌疑人胡某盗窃的犯罪事实): content
                                r"(?!.*?(?:" + "|".join(SUSPECT_ADDRESSES) + r")(?!的|基本|情况)[^的，,]{1,10}的)"
                                r"[^，,。；;：:（()）]{0,14}(?:情况|经过|过程|事实|理由|依据|事项|决定|证据|意见|结论)$")
#: A page number inside a running header or footer line (``某县人民检察院 第 1 页 共 2 页``, ``- 2 -``).
PAGE_NUMBER_INLINE_RE = re.compile(r"\s*(?:第\s*\d+\s*页[\s,，/]*共\s*\d+\s*页|共\s*\d+\s*页[\s,，/]*第\s*\d+\s*页|"
                                   r"[-—－]\s*\d{1,3}\s*[-—－])\s*")
PAGE_MARK_INLINE_RE = re.compile(r"\s*(?:第\s*\d+\s*页[\s,，/]*共\s*\d+\s*页|[（(]\s*院\s*印\s*[）)])\s*")
#: A return of a case for supplementary investigation (退回公安机关补充侦查, 退回补充侦查, 退补, 退查).
SUPPLEMENTARY_INVESTIGATION_RE = re.compile(r"退回(?:[^，。；]{0,12}?)补充侦查|退补|退查")
#: Heading of the evidence list inside the facts.
EVIDENCE_HEADING_RE = re.compile(
    r"(?:认定上述事实的证据如下|上述事实[，,]?有(?:下列|以下|如下)证据(?:证实|证明|予以证实)?|证据如下|"
    r"上述事实.{0,60}?等证据(?:证实|证明|予以证实|在案佐证))"
)
#: The mark of a numbered list item: 1. / 1、 / （一） / 一、
LIST_ITEM_MARK = r"(?:\d{1,2}[.．、]|[（(][一二三四五六七八九十\d]{1,3}[)）]|[一二三四五六七八九十]{1,3}、)"
#: One item of an evidence list.
EVIDENCE_ITEM_RE = re.compile(r"(?m)(?:^|[；;。])\s*" + LIST_ITEM_MARK)
#: A line that starts a list item (a new paragraph when PDF lines are joined).
LIST_ITEM_START_RE = re.compile("^" + LIST_ITEM_MARK)

# ---------------------------------------------------------------- dates and case numbers
CN_DIGITS = "〇零○Ｏ一二三四五六七八九"
#: A date in Arabic or Chinese numerals (二〇二一年三月五日, 二零一五年十月十二日, 2021年3月5日).
DATE_RE = re.compile(
    r"(?P<y>[0-9〇零○Ｏ一二三四五六七八九]{4})\s*年\s*(?P<m>[0-9一二三四五六七八九十]{1,3})\s*月\s*"
    r"(?P<d>[0-9一二三四五六七八九十]{1,3})\s*日"
)
#: A case number (案号), after full-width digits are normalised and spaces removed: 某检刑不诉〔2021〕12号.
CASE_NUMBER_RE = re.compile(r"[^\s，。：:]{0,30}?[〔\[【（(［﹝]\d{4}[〕\]】）)］﹞][A-Za-z]?第?\d{1,6}号")
#: A court's case number: （2021）浙0106刑初345号, (2019)京01刑终123号, （2020）最高法刑核12号.
COURT_CASE_NUMBER_RE = re.compile(r"[（(〔\[［]\d{4}[）)〕\]］][\u4e00-\u9fff]{1,4}\d{0,6}[\u4e00-\u9fff]{1,6}\d{1,6}号")
#: The label of the case number in a web page's metadata (``文书编号：某检刑不诉〔2019〕8号``).
CASE_NUMBER_LABEL_RE = re.compile(r"(?:文书编号|文书号|文号|案号)[:：]?")
#: Bracket forms of the year in case numbers, normalised to 〔〕.
CASE_BRACKETS = {"[": "〔", "]": "〕", "【": "〔", "】": "〕", "（": "〔", "）": "〕", "(": "〔", ")": "〕",
                 "［": "〔", "］": "〕", "﹝": "〔", "﹞": "〕"}

# ---------------------------------------------------------------- decisions
#: Decision clause naming who is (not) prosecuted: 决定对王某某不起诉 / 对被告人张某提起公诉.
DECISION_CLAUSE_RE = re.compile(r"(?:决定)?对(?P<who>[^，。；]{1,60}?)(?:作出|做出)?(?P<what>不起诉|提起公诉)")
#: A sentence that states the decision (决定对王某不起诉 / 对其作出不起诉决定 / 提起公诉，请依法判处): the paragraph
#: that holds it closes the reasoning when no lead-in opens the reasoning.
DECISION_STATEMENT_RE = re.compile(r"决定对[^，。；]{1,60}?(?:作出|做出)?(?:不起诉|提起公诉)|作出不起诉决定|"
                                   r"提起公诉[，,。]?\s*请依法判处|^[^。]{0,40}提起公诉。?$")
#: How a paragraph of the procuratorate speaking opens (本院… / 经本院… / 经审查… / 综上…).
PROCURATORATE_SPEAKING_RE = re.compile(r"^(?:本院|经本院|经依法审查|经审查|综上|检察机关)")
#: Decision wording, used only when no cited article decides the label. Keys are Decision values.
DECISION_WORDING: dict[str, re.Pattern[str]] = {
    "起诉": re.compile(r"提起公诉|请依法判处"),
    "相对不起诉": re.compile(r"犯罪情节轻微.{0,60}?(?:不需要判处刑罚|免除刑罚)|不需要判处刑罚或者免除刑罚"),
    "法定不起诉": re.compile(
        r"不认为是犯罪|不构成犯罪|情节显著轻微|已过追诉时效|经特赦令免除刑罚|告诉才处理|犯罪嫌疑人死亡|免予追究刑事责任|"
        r"不予追究刑事责任|不再追诉"
    ),
    "存疑不起诉": re.compile(r"证据不足|不符合起诉条件"),
}

# ---------------------------------------------------------------- refinement checks (leakage)
#: Conclusory phrases that reveal the decision when they appear in the model inputs.
CONCLUSORY_RE = re.compile(
    r"证据确实[、，,]?\s*充分|足以认定|情节显著轻微|犯罪情节轻微|不需要判处刑罚|免除刑罚|免予刑事处罚|不构成犯罪|"
    r"不认为是犯罪|危害不大|事实不清[、，,]?\s*证据不足|证据不足|不符合起诉条件|决定不起诉|不起诉决定|提起公诉|请依法判处"
)
#: Reasoning that contaminates the facts.
REASONING_IN_FACT_RE = re.compile(
    r"本院认为|综上所述|其行为(?:已)?(?:触犯|构成)|(?:依照|依据|根据)《中华人民共和国(?:刑法|刑事诉讼法)》"
)

# ---------------------------------------------------------------- charges
#: The charge a case was transferred under: 以犯罪嫌疑人王某涉嫌危险驾驶罪 → 危险驾驶罪 (fallback for cards).
CHARGE_SUSPECTED_RE = re.compile(r"涉嫌(?P<charge>[\u4e00-\u9fff、]{2,30}?罪)(?=[，,。；;]|$)")
