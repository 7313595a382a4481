"""De-identification: every planted PII item masked, nothing else changed, residue scan."""

from __future__ import annotations

from dataclasses import replace

import pytest

from jiancha.corpus.deid import DEID_FIELDS, deidentify_record, name_mapping, scan_residue
from jiancha.corpus.name_rules import find_names, header_names, kin_names
from jiancha.corpus.pii_patterns import mask_patterns
from jiancha.datasets.records import PDPRecord


def _apply(text: str, planted: list[list[str]]) -> str:
    for original, masked in planted:
        text = text.replace(original, masked)
    return text


@pytest.mark.parametrize("rid", ["京某检刑不诉〔2019〕156号", "某检一部刑诉〔2019〕301号", "某检刑不诉〔2022〕58号"])
def test_planted_pii_masked_and_nothing_else_changes(rid, records_by_id, expected):
    planted = expected["deid"][rid]
    rec = records_by_id[rid]
    clean = deidentify_record(rec).record
    for f in DEID_FIELDS:
        # replacing exactly the planted items in the original must give the de-identified text
        assert getattr(clean, f) == _apply(getattr(rec, f), planted), f
    every = "\n".join(getattr(clean, f) for f in DEID_FIELDS)
    for original, _ in planted:
        assert original not in every
    assert scan_residue(clean) == []
    # non-text fields untouched
    assert (clean.id, clean.decision, clean.relevant_articles, clean.date, clean.province) == \
        (rec.id, rec.decision, rec.relevant_articles, rec.date, rec.province)


def test_planted_items_were_really_present(records_by_id, expected):
    for rid, planted in expected["deid"].items():
        joined = "\n".join(getattr(records_by_id[rid], f) for f in DEID_FIELDS)
        for original, _ in planted:
            assert original in joined, original
        assert scan_residue(records_by_id[rid]), "the residue scan must see the PII before masking"


def test_records_without_pii_are_unchanged(records_by_id, expected):
    for rid, rec in records_by_id.items():
        if rid in expected["deid"]:
            continue
        assert deidentify_record(rec).record == rec, rid


def test_shared_surnames_get_jia_yi_in_order_of_appearance():
    text = "被告人张丽华骗取被害人张强人民币5万元。证人刘晓燕证实，张强于次日报案。"
    assert find_names(text) == ["张丽华", "张强", "刘晓燕"]
    assert name_mapping(find_names(text), text) == {"张丽华": "张某甲", "张强": "张某乙", "刘晓燕": "刘某某"}


def test_two_and_three_character_names():
    # a third character counts only if the two-character form never occurs without it
    text = "被害人张强办理手续，张强于次日报案。被害人王刚的陈述。证人李秀英证实，李秀英系邻居。"
    assert find_names(text) == ["张强", "王刚", "李秀英"]


def test_existing_mou_form_is_not_reused_for_another_person():
    text = "被不起诉人王某某与被害人王刚发生争执，王刚受伤。"
    assert name_mapping(find_names(text), text) == {"王刚": "王某"}
    text2 = "证人王某证实，被害人王刚受伤，王刚报警。"
    assert name_mapping(find_names(text2), text2) == {"王刚": "王某甲"}


@pytest.mark.parametrize("raw,masked", [
    ("公民身份号码110105198604171234，", "公民身份号码×××，"),
    ("联系电话13812345678。", "联系电话×××。"),
    ("1986年4月17日出生，", "1986年4月出生，"),
    ("驾驶浙A12345号小型轿车", "驾驶浙A×××××号小型轿车"),
    ("银行卡6222021234567890123转账", "银行卡×××转账"),
    ("邮箱abc.d@example.com。", "邮箱×××。"),
    ("微信号wx_abc123联系", "微信号×××联系"),
    # a house number wherever it stands (here a place of the offence): the street is kept
    ("在某某市望京路18号3幢502室门口", "在某某市望京路×号门口"),
    ("在某某小区14栋1单元2203室内", "在某某小区×号内"),
    ("到某某村四社26号，", "到某某村×号，"),
    ("在某某路569弄12号1402室", "在某某路×号"),
    ("在某某街1046号3-5-2，", "在某某街×号，"),
    # a home address: what is below the town goes, the places above it stay
    ("住某某市望京路18号3幢502室。", "住某某市×××。"),
    ("户籍所在地四川省南充市南部县升钟镇石龙村委会二组，现住南部县城河东路附近的滨江花园6号楼", "户籍所在地四川省南充市南部县升钟镇×××，现住南部县城河东路附近×××"),
    ("住宝力根苏木巴音宝力格嘎查第三浩特，", "住宝力根苏木×××，"),
    ("家住甘肃省临夏回族自治州东乡族自治县锁南镇达板村三社附近，", "家住甘肃省临夏回族自治州东乡族自治县锁南镇×××，"),
    ("户籍地河北省石家庄市长安区，暂住北京市朝阳区十八里店乡。", "户籍地河北省石家庄市长安区，暂住北京市朝阳区十八里店乡。"),
    ("住温州市鹿城区黎明西路211号5幢1402室。", "住温州市鹿城区×××。"),
    ("住院治疗，", "住院治疗，"),
    # numbers printed in groups, accounts after their platform
    ("公民身份号码 1101 0519 9602 2940 26，", "公民身份号码 ×××，"),
    ("银行卡号6222 0212 3456 7890 123转账", "银行卡号×××转账"),
    ("手机138 5712 1946", "手机×××"),
    ("QQ号码358201746。", "QQ号码×××。"),
    ("护照号码A10473825，", "护照号码×××，"),
    ("身份证号11010519860417123X手机13812345678", "身份证号×××手机×××"),
])
def test_pattern_masks(raw, masked):
    assert mask_patterns(raw) == masked


@pytest.mark.parametrize("keep", [
    "价值人民币7,850元", "2020年11月30日22时许", "血液中乙醇含量为92mg/100ml", "《中华人民共和国刑法》第二百六十四条",
    "某检刑不诉〔2021〕12号", "统一社会信用代码91430000000000000X", "某某市公安局某某分局", "拨打120急救电话",
    "于2019年8月12日移送本院审查起诉", "审查了全部案件材料", "店主全部损失", "分3组行动", "某公刑诉字〔2016〕第117号",
    "共猎捕野猪2头、狍子3只", "陆生野生动物",
])
def test_non_pii_unchanged(keep):
    rec = PDPRecord(id="x", person_info=keep, procedure=keep, fact=keep, decision="起诉",
                    raw_reasoning_and_decision=keep)
    assert deidentify_record(rec).record == rec


def test_residue_scan_reports_leftovers():
    rec = PDPRecord(id="x", person_info="", procedure="", fact="证人王刚称，其电话为13912345678。", decision="起诉")
    kinds = {(r.kind, r.span) for r in scan_residue(rec)}
    assert ("mobile", "13912345678") in kinds and ("name", "王刚") in kinds
    assert scan_residue(replace(rec, fact=deidentify_record(rec).record.fact)) == []


def test_header_names_fix_length_and_skip_units_and_pseudonyms():
    person = ("犯罪嫌疑人欧阳明，男，1990年出生（曾用名欧阳小明），汉族。\n犯罪嫌疑单位某某贸易有限公司，住所地某某市。\n"
              "法定代表人赵大勇，男。\n被不起诉人王某某，女。\n犯罪嫌疑人李明开车")  # last line: no delimiter, no name
    assert header_names(person) == ["欧阳明", "欧阳小明", "赵大勇"]


def test_header_names_are_masked_everywhere_in_the_record():
    # 陈一鸣 never follows a context word outside the person block; 高远 never follows one at all: only the
    # named-entity recogniser finds it (with the context rules alone it stays)
    rec = PDPRecord(id="x", person_info="犯罪嫌疑人陈一鸣，男，1990年出生。",
                    procedure="本案由某某市公安局侦查终结，以犯罪嫌疑人陈一鸣涉嫌危险驾驶罪移送审查起诉。",
                    fact="陈一鸣驾车与高远一起回家。被害人孙丽报警称陈一鸣逃离现场。", decision="起诉",
                    raw_reasoning_and_decision="本院认为，陈一鸣的行为触犯了《中华人民共和国刑法》第一百三十三条之一。")
    rules = deidentify_record(rec, "none")
    assert rules.names == {"陈一鸣": "陈某某", "孙丽": "孙某"}
    res = deidentify_record(rec)
    assert res.names == {"陈一鸣": "陈某某", "高远": "高某", "孙丽": "孙某"}
    for f in DEID_FIELDS:
        assert getattr(res.record, f) == (getattr(rec, f).replace("陈一鸣", "陈某某").replace("孙丽", "孙某")
                                          .replace("高远", "高某")), f
    assert [(m.field, m.text) for m in res.masked if m.text == "高远"] == [("fact", "高远")]


def test_known_header_name_decides_the_length_after_a_cue():
    # without the header, 李明开 could be read as a three-character name (it occurs only once)
    text = "犯罪嫌疑人李明开车撞伤被害人。"
    assert find_names(text) == ["李明"]  # 开 is a verb, never taken as a third character
    assert find_names("犯罪嫌疑人王小燕到案。", known=["王小燕"]) == ["王小燕"]
    assert find_names("证人李秀英证实", known=["李秀"]) == ["李秀"]  # the header's length wins


def test_names_listed_after_a_found_name():
    text = "被告人张伟、李强、王小燕等人共谋。被害人周杰、吴刚二人受伤，证人刘晓燕证实。"
    assert find_names(text) == ["张伟", "李强", "王小燕", "周杰", "吴刚", "刘晓燕"]
    # a list item that is not a name stops the list
    assert find_names("被害人周杰、某某公司受损") == ["周杰"]


def test_masking_is_consistent_across_fields_with_shared_surnames():
    rec = PDPRecord(id="x", person_info="犯罪嫌疑人张丽华，女，1991年出生。", procedure="",
                    fact="张丽华骗取被害人张强人民币5万元，张强报案。", decision="起诉",
                    raw_reasoning_and_decision="本院认为，张丽华骗取张强财物。")
    clean = deidentify_record(rec).record
    assert clean.person_info == "犯罪嫌疑人张某甲，女，1991年出生。"
    assert clean.fact == "张某甲骗取被害人张某乙人民币5万元，张某乙报案。"
    assert clean.raw_reasoning_and_decision == "本院认为，张某甲骗取张某乙财物。"


def test_residue_scan_reports_header_names_anywhere():
    rec = PDPRecord(id="x", person_info="犯罪嫌疑人陈一鸣，男。", procedure="", fact="陈一鸣驾车回家。", decision="起诉")
    assert [(r.field, r.kind, r.span) for r in scan_residue(rec)] == [
        ("person_info", "name", "陈一鸣"), ("fact", "name", "陈一鸣")]
    assert scan_residue(deidentify_record(rec).record) == []


def test_a_foreigners_names_in_both_scripts_get_one_pseudonym():
    rec = PDPRecord(id="x", person_info="被告人颂猜·蓬玛（SOMCHAI PHROMMA），男，泰王国国籍，护照号码AA4718263。",
                    procedure="本案由某某海关缉私局侦查终结，以被告人SOMCHAI PHROMMA涉嫌走私毒品罪移送本院审查起诉。",
                    fact="被告人SOMCHAI PHROMMA携带毒品入境。", decision="起诉")
    res = deidentify_record(rec, "none")
    assert res.names["SOMCHAI PHROMMA"] == res.names["颂猜·蓬玛"]
    every = "\n".join(getattr(res.record, f) for f in DEID_FIELDS)
    assert "SOMCHAI" not in every and "颂猜" not in every and "AA4718263" not in every


def test_a_relative_named_before_a_verb():
    assert kin_names("被害人之妻乌云其其格代表家属出具了谅解书。") == ["乌云其其格"]


def test_nicknames_foreign_names_and_masked_compound_surnames():
    rec = PDPRecord(
        id="x", decision="相对不起诉",
        person_info="被不起诉人郑阿水（绰号“黑仔”），男。\n被告人马可·罗西（ROSSI Marco，中文译名），男，意大利国籍。\n"
                    "被不起诉人吉克某某，男，彝族。",
        procedure="听取了辩护人Lucia Bianchi的意见。",
        fact="黑仔伙同吉克某某盗窃。证人赵某某、和志强的证言；证人海燕（系郑阿水之妻）的证言。",
        raw_reasoning_and_decision="本院认为，郑阿水、马可·罗西的行为……",
    )
    res = deidentify_record(rec)
    text = "\n".join(getattr(res.record, f) for f in DEID_FIELDS)
    for leaked in ("黑仔", "ROSSI Marco", "Lucia Bianchi", "和志强", "海燕", "郑阿水", "马可·罗西"):
        assert leaked not in text, leaked
    assert text.count("吉克某某") == 2 and "赵某某" in text


@pytest.mark.parametrize(("text", "names"), [
    # a co-offender before a gloss on their case, whatever the surname
    ("被不起诉人眭建波伙同阙海洋（在逃）在网吧门口抢走手机。", ["眭建波", "阙海洋"]),
    ("与卓玛（另案处理）共同盗窃。", ["卓玛"]),
    # a transliterated name with a middle dot after a context word
    ("与被害人阿依古丽·吐尔逊的丈夫发生争执。", ["阿依古丽·吐尔逊"]),
    # a witness list: names without a surname, masked ones skipped
    ("证人巴图、宝音德力格尔的证言；", ["巴图", "宝音德力格尔"]),
    ("证人巴某某、乌兰、宝音的证言；", ["乌兰", "宝音"]),
    # bystanders and people named by their work
    ("路人祁连用手机拍下了事发经过。", ["祁连"]),
    ("从农场职工明秋菊处转包土地。", ["明秋菊"]),
    # not names: a list of injuries or of data kinds after a context word, a word holding a context word
    ("但未致使被害人重伤、死亡的。", []),
    ("在多个网络群组中收购业主姓名、电话、房产信息等公民个人信息。", []),
    ("向企业主管部门报告。", []),
    # a dotted name between punctuation anywhere, a foreigner's Latin name after the nationality
    ("致其骨折。热某某、古丽娜尔·艾力及努某某在场目睹。", ["古丽娜尔·艾力"]),
    ("趁俄罗斯籍旅客IVANOVA OLGA熟睡之机窃取财物。", ["IVANOVA OLGA"]),
    # beside an already-masked name; before what the person said; a lawyer before the firm
    ("但麦某某、羊春梅证实该车已借给他人。", ["羊春梅"]),
    ("邻居拓海军证实了上述事实。", ["拓海军"]),
    ("在值班律师其其格（某某律师事务所律师）见证下签署具结书。", ["其其格"]),
    # not names: a death certificate after a context word
    ("被害人死亡医学证明书一份。", []),
    # after a copula, a relative before what they gave, a nickname after a closing quote
    ("该店经营者为古丽娜尔·艾则孜。", ["古丽娜尔·艾则孜"]),
    ("听取了被害人及被不起诉人之子乌日根的意见。", ["乌日根"]),
    ("受境外“老板”岩香（在逃）雇佣运输毒品。", ["岩香"]),
], ids=["co-offender", "co-offender-no-surname", "dotted", "witness-list", "witness-list-masked", "bystander",
        "occupation", "injuries", "data-kinds", "inside-a-word", "dotted-anywhere", "latin-after-nationality",
        "beside-masked", "before-testimony", "lawyer", "certificate", "dotted-after-copula", "kin-before-opinion",
        "after-quote"])
def test_context_rules_find_names_of_every_form(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


def test_a_companys_registered_address_and_a_relatives_illness_are_kept():
    rec = PDPRecord(id="x", decision="起诉", person_info="被告单位某某咨询有限公司，住所地郑州市金水区花园路财富广场。",
                    procedure="", fact="因其母突发疾病，驾车送其母前往医院就医。")
    res = deidentify_record(rec, "none")
    assert res.record.person_info == rec.person_info and res.record.fact == rec.fact and res.names == {}


def test_nicknames_international_phones_and_repeated_accounts_are_masked_everywhere():
    rec = PDPRecord(id="x", decision="存疑不起诉", person_info="", procedure="",
                    fact="通过微信（昵称“山城老冼”）与人联系，通过QQ（号码1097734652）索要钱财，用手机（+852 9137 4482）确认。",
                    raw_reasoning_and_decision="本院认为，号码为1097734652的QQ账号虽登记在其名下……")
    res = deidentify_record(rec, "none")
    assert res.record.fact == "通过微信（昵称“×××”）与人联系，通过QQ（号码×××）索要钱财，用手机（×××）确认。"
    assert res.record.raw_reasoning_and_decision == "本院认为，号码为×××的QQ账号虽登记在其名下……"
    assert [(m.kind, m.text) for m in res.masked if m.kind == "repeat"] == [("repeat", "1097734652")]


def test_spaced_landlines_and_a_registered_address_after_the_credit_code():
    text = ("某某有限公司，统一社会信用代码91330102MA27XK3L5Q，住所地杭州市上城区钱江路1366号华润大厦A座2101室。"
            "联系电话024-2284 6110、(022)23658841。")
    assert mask_patterns(text) == ("某某有限公司，统一社会信用代码91330102MA27XK3L5Q，住所地杭州市上城区钱江路1366号华润大厦A座2101室。"
                                   "联系电话×××、×××。")


@pytest.mark.parametrize(("text", "names"), [
    ("由乌云其其格（额某某之妻）与林某签订承包合同。", ["乌云其其格"]),
    ("其法定代理人满秋生，系其父亲。", ["满秋生"]),
    ("听取了辩护人太京哲和被害单位的意见。", ["太京哲"]),
    ("以被不起诉人司马某某、任平安涉嫌赌博罪移送审查起诉。", ["任平安"]),
    ("被不起诉人雍某某趁旅客包燕妮熟睡之机窃取财物。", ["包燕妮"]),
    # not names: a school level, relatives as a class, a related right
    ("被害人近亲属和诉讼代理人", []),
    ("告知被告人的法定代理人相关诉讼权利。", []),
], ids=["kin-gloss", "comma-gloss", "three-after-counsel", "listed-before-charge", "traveller", "relatives", "rights"])
def test_more_context_rules(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


def test_a_masked_foreigners_name_in_latin_letters_with_diacritics_and_a_boats_number():
    rec = PDPRecord(id="x", decision="存疑不起诉", person_info="被不起诉人丹某某（KOVÁCS DÁNIEL，匈牙利国籍），男。",
                    procedure="以被不起诉人KOVÁCS DÁNIEL涉嫌诈骗罪移送审查起诉。",
                    fact="汪某甲驾驶皖芜湖渔12073号渔船非法捕捞。")
    res = deidentify_record(rec, "none")
    assert "KOVÁCS" not in res.record.person_info + res.record.procedure
    assert res.record.procedure == "以被不起诉人丹某某涉嫌诈骗罪移送审查起诉。"
    assert res.record.fact == "汪某甲驾驶皖芜湖渔×××××号渔船非法捕捞。"


def test_names_listed_beside_a_found_one_before_a_preposition_and_corporate_roles():
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="",
                    fact="当时在场的包金山、图门对上述经过均有证言。系按公司实际控制人向红梅的安排代收。先后对其其格、宝某进行殴打。"
                         "上述事实有林场护林员关玉凤的证言。驾驶“浙象渔冷01688”号船。")
    res = deidentify_record(rec, "none")
    assert list(res.names) == ["包金山", "图门", "向红梅", "其其格", "关玉凤"]
    assert "浙象渔冷×××××" in res.record.fact


def test_a_foreigners_residence_a_handle_a_glossed_nickname_and_places_the_recogniser_takes_for_people():
    rec = PDPRecord(id="x", decision="起诉", person_info="被告人阮某某，某机械设备（上海）有限公司技术顾问，在华住所上海市闵行区虹泉路1099弄22号1202室。",
                    procedure="", fact="通过软件（账号@hung_vn96）接收指令，盗窃旅客“小红帽”（网名，真实姓名不详）的财物。"
                                       "住郑州市金水区文化路与东风路交叉口北300米东方花园1号楼。")
    res = deidentify_record(rec, "none")
    assert res.record.person_info.endswith("在华住所上海市闵行区×××。")
    assert res.record.fact == ("通过软件（账号×××）接收指令，盗窃旅客“小某某”（网名，真实姓名不详）的财物。"
                               "住郑州市金水区文化路与东风路交叉口北300米×××。")


@pytest.mark.parametrize(("text", "names"), [
    ("法定代理人乌云其木格，女，系被不起诉人之妻。", ["乌云其木格"]),
    ("同案人“老六”未到案。", ["老六"]),
    ("听取了法律援助律师玉香的意见。", ["玉香"]),
    ("以被不起诉人冉某某、母军涉嫌非法拘禁罪移送审查起诉。", ["母军"]),
], ids=["glossed-five", "quoted-after-cue", "counsel-before-opinion", "beside-masked-before-charge"])
def test_names_glossed_quoted_or_beside_a_masked_one(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


@pytest.mark.parametrize(("text", "names"), [
    ("艾某某经其兄阿不都热依木·买买提陪同主动投案。", ["阿不都热依木·买买提"]),
    ("先后向被害人岩温借款共计人民币18万元。", ["岩温"]),
    ("列车员贺兰山证实当时车厢人员流动较大。", ["贺兰山"]),
    ("受绰号“耗儿”的男子（在逃）雇用。", ["耗儿"]),
], ids=["dotted-relative", "dai-name", "train-crew", "nickname"])
def test_names_of_relatives_minorities_crew_and_nicknames(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


def test_an_account_after_账号_and_citations_after_the_decision_sentence():
    from jiancha.corpus.text import normalize_line

    assert mask_patterns("以账号yzvip888发展下级会员，银行账号6222020200118734566") == "以账号×××发展下级会员，银行账号×××"
    assert normalize_line("绰号&ldquo;耗儿&rdquo;") == "绰号“耗儿”"


def test_accounts_ids_and_foreign_names_after_their_language():
    assert mask_patterns("抖音账号\"燕子说事儿\"；无法确认“山城老冉”账号的使用人；驾驶证档案编号360100887241。") == \
        "抖音账号\"×××\"；无法确认“×××”账号的使用人；驾驶证档案编号×××。"
    rec = PDPRecord(id="x", decision="起诉", person_info="被告人岩某（缅甸名：AIK HTWE），男，1992年出生。",
                    procedure="以被告人AIK HTWE涉嫌走私毒品罪移送审查起诉。", fact="")
    assert deidentify_record(rec, "none").record.procedure == "以被告人岩某涉嫌走私毒品罪移送审查起诉。"


@pytest.mark.parametrize(("text", "names"), [
    ("其子杨务榜（苗名榜九）代为退缴了保证金。", ["杨务榜", "榜九"]),
    ("雇佣大老李等人在其承包的林班内采伐落叶松。", ["大老李"]),
    ("已向上游供货商权五哲支付订货款。", ["权五哲"]),
    ("证人危秀英证实当晚未见异常。", ["危秀英"]),
], ids=["name-in-own-language", "familiar-form-hired", "wordlike-surname-after-cue", "wordlike-surname-split"])
def test_names_in_a_minority_language_familiar_forms_and_wordlike_surnames(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


@pytest.mark.parametrize("text", [
    "依法告知被害人权利义务。", "被害人后脑勺受伤。", "证人山东人，务工。", "被害人支付货款后未收到货物。",
    "嫌疑人伙同小某等人盗窃。",
], ids=["rights", "body-part", "province", "verb", "masked-familiar"])
def test_wordlike_surnames_and_familiar_forms_are_not_taken_from_words(text):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == []


@pytest.mark.parametrize(("text", "names"), [
    ("与韩国商人KIM SUNG HO签订冷冻鱿鱼购销合同。", ["KIM SUNG HO"]),
    ("为其聘请了越南语翻译人员黄氏梅（HOANG THI MAI），讯问了被不起诉人。", ["黄氏梅", "HOANG THI MAI"]),
    ("在ABC TRADING CO公司（SINO TRADE LTD）仓库内，经DNA鉴定。", []),
], ids=["capitals", "bracketed-after-chinese", "company-and-acronym"])
def test_foreigners_latin_names_in_capitals_or_in_brackets(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


def test_the_recogniser_does_not_take_a_body_or_money_for_a_person():
    from jiancha.corpus.recognised import accept_recognised

    text = "经宝鸡市公安局交通警察支队陈仓大队认定；退还钱款。"
    assert not accept_recognised("陈仓大队", text) and not accept_recognised("钱款", text)
    assert accept_recognised("陈仓", "证人陈仓称")
    assert not accept_recognised("景洪", "乘客车前往景洪市；托其带给景洪的亲戚")


def test_a_phone_of_any_shape_after_the_word_for_it_and_not_a_count():
    assert mask_patterns("澳门手机号码66123478；电话：8765 4321；拨打电话20余次；手机2部") == \
        "澳门手机号码×××；电话：×××；拨打电话20余次；手机2部"


def test_the_recogniser_does_not_run_a_name_into_the_word_after_it():
    from jiancha.corpus.recognised import accept_recognised

    text = "证人次仁卓玛系在甜茶馆内隔窗观察。"
    assert not accept_recognised("仁卓玛系", text) and accept_recognised("次仁卓玛", text)


@pytest.mark.parametrize(("text", "names"), [
    ("二、该厅计划财务处出纳海燕及其他相关工作人员的证言。", ["海燕"]),
    ("伙同同村人“老三”（身份不详），驾驶农用三轮车。", ["老三"]),
    ("受一名叫“岩坎”的缅甸籍男子雇请；侦查机关未能查获“岩坎”。", ["岩坎"]),
    ("村民小组及家属均不知情。", []),
], ids=["given-name-before-conjunction", "quoted-unidentified", "called", "words-before-conjunction"])
def test_given_names_alone_and_names_of_unidentified_people(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    res = deidentify_record(rec, "none")
    assert list(res.names) == names
    assert not any(n in res.record.fact for n in names)


@pytest.mark.parametrize(("text", "names"), [
    ("证人宋蓬（SOMPHONE，老挝籍，车辆原驾驶人）的证言。", ["宋蓬", "SOMPHONE"]),
    ("伙同绰号“Mike”的男子（真实身份不详，在逃）实施诈骗。", ["Mike"]),
    ("被害人之子海军（联系电话13995174820）代表近亲属出具了谅解书。", ["海军"]),
    ("该院主治医师虎胜利出具了死亡证明。", ["虎胜利"]),
    ("伙同储成林（另案处理）采取虚报安置人口的手段。", ["储成林"]),
    ("通过微信与上家“王某”（另案处理）联系。", []),
], ids=["latin-alias-then-comma", "latin-nickname", "kin-two-glossed", "physician-hui-surname",
        "companion-after-comma", "masked-quoted"])
def test_aliases_relatives_lists_and_occupations(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


def test_a_passport_number_printed_as_series_and_number():
    assert mask_patterns("俄罗斯联邦国籍，护照号码75 4821936，个体商人") == "俄罗斯联邦国籍，护照号码×××，个体商人"


def test_a_list_goes_on_after_a_recognised_name_and_its_gloss():
    from jiancha.corpus.name_rules import listed_beside

    text = "证人扎西卓玛（扎青乡副乡长）、尼玛（村委会主任）的证言；李某某（系其妻）、鉴定意见、电子数据等证据。"
    assert listed_beside(text, ["扎西卓玛"]) == ["尼玛"]


@pytest.mark.parametrize(("text", "names"), [
    ("棉花收购点经营者阿依古丽·吐尔逊（联系电话略）证实。", ["阿依古丽·吐尔逊"]),
    ("出售给俄罗斯籍商人安德烈·沃尔科夫（Andrei Volkov）。", ["安德烈·沃尔科夫", "Andrei Volkov"]),
    ("有时由“马三”的上线“阿杰”直接送货；仍未查获“阿杰”。", ["阿杰"]),
    ("并在酒店房间内帮助上线“刷流水”。", []),
    ("听取了被害人和值班律师的意见。", []),
    ("与邻桌的被害人朴英姬之夫发生口角。", ["朴英姬"]),
    ("利用在室内找到的被害人旧手机，登录其账户。", []),
], ids=["dotted-after-operator", "dotted-after-merchant", "quoted-after-upline", "activity-after-upline",
        "conjunction-before-counsel", "verb-after-kin", "modifier-noun-after-victim"])
def test_names_after_trades_and_quoted_uplines_and_phrases_that_are_no_names(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


def test_a_nickname_is_masked_wherever_it_stands_and_wallets_and_overseas_phones_are_masked():
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="",
                    fact="结识网名为“老K”的男子，将银行卡出售给“老K”；通过钱包TJ8sK2mXq7wPzLr4vN6bY3cHdF5gA1eRtU转移；"
                         "电话+95 9 4501 23678。")
    assert deidentify_record(rec, "none").record.fact == \
        "结识网名为“×××”的男子，将银行卡出售给“×××”；通过钱包×××转移；电话×××。"


@pytest.mark.parametrize(("text", "names"), [
    ("先后收取被害人谭某某、向建军人民币共计15.6万元。", ["向建军"]),
    ("将盗伐的木材运至门立新经营的木材收购点销售。", ["门立新"]),
    ("酒吧调酒师卞凯文（英文名Kevin）目睹了事发经过。", ["Kevin"]),
    ("赔偿被害人医疗费、误工费等各项经济损失。", []),
    ("不能证明被不起诉人具有非法占有的目的。", []),
], ids=["listed-before-money", "owner", "english-name-in-brackets", "costs-after-victim", "verb-after-suspect"])
def test_names_listed_before_money_owners_english_names_and_costs_that_are_no_names(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


def test_a_header_name_that_is_also_a_word_and_listed_accounts_and_cross_border_plates():
    rec = PDPRecord(id="x", decision="起诉", person_info="被告人于是，男，1999年9月9日出生。", procedure="",
                    fact="被告人于是利用注册的12306账号“jkah0619”“xc_ticket2021”等抢票，并安排粤Z·H823港号货车运输。")
    res = deidentify_record(rec, "none")
    assert list(res.names) == ["于是"]
    assert res.record.fact == "被告人于某利用注册的12306账号“×××”“×××”等抢票，并安排粤Z×××××号货车运输。"


def test_companies_numbered_roads_and_state_farms_are_no_personal_details():
    from jiancha.corpus.recognised import accept_recognised

    text = "被告单位上海星澜网络科技有限公司搭建“星澜影视”APP；行驶至高新南九道路口"
    assert not accept_recognised("星澜", text) and not accept_recognised("高新", text)
    assert mask_patterns("宝泉岭农场职工，住萝北县宝泉岭农场北山小区5号楼2单元301室。") == \
        "宝泉岭农场职工，住萝北县宝泉岭农场×××。"
    assert mask_patterns("牧民，住称多县珍秦镇二村三社牧场。") == "牧民，住称多县珍秦镇×××。"
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="",
                    fact="被害人孙某某向户名为刘某、账号为6217000010089934126的银行账户转账。")
    assert list(deidentify_record(rec, "none").names) == []


@pytest.mark.parametrize(("text", "names"), [
    ("本院受理后，并聘请古丽娜尔·艾山担任维吾尔语翻译人员。", ["古丽娜尔·艾山"]),
    ("通知买买提·吐尔逊不起诉；阿依古丽·吐尔逊亦证实艾力·买买提明到场。", ["买买提·吐尔逊", "阿依古丽·吐尔逊", "艾力·买买提明"]),
    ("审查了全部案件材料。因艾力·买买提不通晓汉语，本院聘请翻译。", ["艾力·买买提"]),
    ("由阿卜杜热合曼·吐尔逊利用担任会计的职务便利，叶莲娜·彼得罗娃多次转账。", ["阿卜杜热合曼·吐尔逊", "叶莲娜·彼得罗娃"]),
    ("住碧桂园·凤凰城；经鉴定，涉案动物为蜂猴（Nycticebus bengalensis）。", []),
], ids=["after-a-verb", "after-a-comma-and-in-a-run", "after-a-conjunction", "before-a-verb-or-count",
        "compound-and-species"])
def test_transliterated_names_with_a_middle_dot_wherever_they_stand(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    assert list(deidentify_record(rec, "none").names) == names


@pytest.mark.parametrize(("text", "names"), [
    ("被告人扎西顿珠与被害人旺堆在拉孜县一甜茶馆内饮酒；扎西顿珠朝旺堆胸腹部连刺三刀。", ["扎西顿珠", "旺堆"]),
    ("经依法审查查明：被害人其木格放牧于东胜区罕台镇的绵羊丢失。", ["其木格"]),
    ("与牧民乌日根发生争执；牧民乌力吉巴雅尔发现草场被挖后举报。", ["乌日根", "乌力吉巴雅尔"]),
    ("将牧民其其格拴养在棚圈内的黄牛盗走；并有部分转账经公司出纳其其格审核。", ["其其格"]),
    ("本院聘请景颇语翻译木然诺为其提供翻译；称手机曾借给其堂弟勒排干使用。", ["木然诺", "勒排干"]),
    ("被害人右眼眶骨折；在辩护人在场的情况下签署；被告人结伙作案；住七星农场居民区安居小区。", []),
], ids=["given-name-before-a-particle", "three-before-a-verb", "herders", "before-a-verb-of-one-character",
        "interpreter-and-cousin", "phrases-that-are-no-names"])
def test_given_names_without_a_surname_after_words_for_people(text, names):
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="", fact=text)
    res = deidentify_record(rec, "none")
    assert list(res.names) == names
    assert not any(n in res.record.fact for n in names)


def test_aliases_long_names_lists_law_firms_and_relatives():
    rec = PDPRecord(
        id="x", decision="相对不起诉",
        person_info="被不起诉人包金山（蒙古名巴音吉日嘎拉），男，1943年2月出生。\n被不起诉人那顺乌力吉（又名“那顺”），男。",
        procedure="以被不起诉人额尔敦巴雅尔、那顺乌力吉涉嫌寻衅滋事罪移送审查起诉；听取了辩护人甘肃河州律师事务所律师孔令杰的意见。",
        fact="通过其妻子金燕名下的银行账户转账；到坟前祭扫其父母坟墓。")
    res = deidentify_record(rec, "none")
    assert set(res.names) == {"包金山", "巴音吉日嘎拉", "那顺乌力吉", "那顺", "额尔敦巴雅尔", "孔令杰", "金燕"}
    assert "甘肃河州律师事务所" in res.record.procedure and "父母坟墓" in res.record.fact


def test_a_home_address_is_masked_where_it_is_repeated_and_mongolian_villages_are_kept():
    from jiancha.corpus.recognised import accept_recognised

    rec = PDPRecord(id="x", decision="相对不起诉", person_info="被不起诉人刘某，男，住湖北省潜江市熊口镇赵脑村二组。",
                    procedure="", fact="被不起诉人刘某在赵脑村二组其兄家中饮酒时与同组村民发生争执。")
    res = deidentify_record(rec, "none")
    assert "赵脑村二组" not in res.record.person_info + res.record.fact
    assert "湖北省潜江市熊口镇" in res.record.person_info
    text = "住鄂温克族自治旗锡尼河西苏木孟根楚鲁嘎查；在阿巴嘎旗洪格尔苏木萨如拉图雅嘎查境内；销赃给牛贩子周某"
    assert not any(accept_recognised(n, text) for n in ("孟根楚鲁嘎", "孟根", "苏木萨", "洪格尔", "拉图雅", "牛贩子"))


def test_names_in_a_table_written_as_text_and_surnames_before_time_words_or_common_nouns():
    rec = PDPRecord(id="x", decision="起诉", person_info="", procedure="",
                    fact="具体如下：\n序号被害人时间金额1 孙某某 2012年5月 80000 2 解红梅 2012年8月 120000 3 高某 12万元\n"
                         "二被告人于次日被抓获；林场护林员巡山时发现；住某小区3 单元 201室。")
    res = deidentify_record(rec, "none")
    assert list(res.names) == ["解红梅"]
    assert "被害人时间金额" in res.record.fact and "于次日" in res.record.fact and "巡山时" in res.record.fact


def test_nicknames_after_what_a_group_calls_them_numbers_in_two_groups_and_sub_districts():
    rec = PDPRecord(id="x", decision="起诉", person_info="被告人戴某，男，住长春市朝阳区红旗街道湖西路88号3栋601室。",
                    procedure="",
                    fact="在公司内被称为“老K”；群主“发财哥”组织群成员；卡号621700351000 2468135；银行卡62170037 6000 1289 455；"
                         "送给时任副厅长的宫学礼（已判刑）现金；乌日娜之女其木格在整理旧物时发现；由其子于洪波监护；"
                         "谎称能帮助被害人之子安排工作；在重庆市巴南区李家沱一带寻找目标。")
    res = deidentify_record(rec, "none")
    assert set(res.names) >= {"老K", "发财哥", "宫学礼", "其木格", "于洪波"} and "安排工作" not in res.names
    assert "621700351000" not in res.record.fact and "62170037" not in res.record.fact
    assert "长春市朝阳区红旗街道" in res.record.person_info and "湖西路" not in res.record.person_info


def test_names_after_titles_and_a_companys_account_of_twenty_digits():
    rec = PDPRecord(id="x", decision="相对不起诉", person_info="", procedure="",
                    fact="并在村民小组长岩温香协助下组织补植；经三营村村委会主任白亥卖调解；进入该公司对公账户"
                         "（账号51001870836051512345）。")
    res = deidentify_record(rec, "none")
    assert set(res.names) == {"岩温香", "白亥卖"} and "51001870836051512345" not in res.record.fact


def test_a_relative_whose_surname_ends_names_and_a_body_before_testimony():
    rec = PDPRecord(id="x", decision="法定不起诉", person_info="被不起诉人于长江，男，1960年出生。",
                    procedure="听取了辩护人、被害人代表的意见。",
                    fact="被不起诉人于长江与其弟于长河（已死亡）未经许可采伐；其妻和其子（均已到案）。")
    res = deidentify_record(rec, "none")
    assert list(res.names) == ["于长江", "于长河"] and "被害人代表的意见" in res.record.procedure
