"""Chinese legal strings and regex fragments, defined once and reused across ``jiancha.law``.

Law names map to the PDP-Bench prefixes ``cl`` (中华人民共和国刑法), ``cpl`` (中华人民共和国刑事诉讼法) and
``cpr`` (人民检察院刑事诉讼规则, including the older title ``人民检察院刑事诉讼规则（试行）``).
"""

from __future__ import annotations

import re

from jiancha.law.numerals import NUMBER_PATTERN, NUMERAL_CHARS

#: Full official titles (the 2012 Rules were issued as a trial version, ``（试行）``).
CRIMINAL_LAW_TITLE = "中华人民共和国刑法"
CRIMINAL_PROCEDURE_LAW_TITLE = "中华人民共和国刑事诉讼法"
PROCURATORATE_RULES_TITLE = "人民检察院刑事诉讼规则"
TRIAL_VERSION_NOTE = "（试行）"
PROCURATORATE_RULES_OLD_TITLE = PROCURATORATE_RULES_TITLE + TRIAL_VERSION_NOTE

#: Every accepted name of each PDP law (after dropping 《》 and a trailing version note such as （2018年修正）).
LAW_ALIASES: dict[str, tuple[str, ...]] = {
    "cl": (CRIMINAL_LAW_TITLE, "刑法"),
    "cpl": (CRIMINAL_PROCEDURE_LAW_TITLE, "刑事诉讼法", "刑诉法"),
    "cpr": (PROCURATORATE_RULES_TITLE, PROCURATORATE_RULES_OLD_TITLE, PROCURATORATE_RULES_TITLE + "(试行)",
            "刑事诉讼规则", "刑诉规则", "高检规则"),
}
ALIAS_TO_LAW: dict[str, str] = {a: law for law, aliases in LAW_ALIASES.items() for a in aliases}

#: Title ending of an amendment to a law (``刑法修正案（十一）``): another document, not the law itself.
AMENDMENT_SUFFIX = "修正案"

#: Suffixes that end the name of a law or another normative document (used to recognise *other* laws).
NORMATIVE_SUFFIXES = ("法", "条例", "规则", "规定", "解释", "办法", "决定", "意见", "批复", "通知", "纪要",
                      AMENDMENT_SUFFIX, "细则")

#: A trailing version note after a title: （2018年修正）, (试行), 【2012年】.
VERSION_NOTE = r"(?:[（(【\[][^（）()【】\[\]\n]{0,14}[）)】\]])"

#: Verbs/phrases that negate the citation that follows them (``不适用《刑法》第三十七条``): the article is not
#: applied. ``不符合《刑法》第二百七十一条规定的…构成要件`` is not one: the article is the measure the facts are held
#: against, so it is cited.
NEGATION_PATTERN = re.compile(
    r"(?:不|未|无须|无需|并不|不应|不再|不能|不得|不予)(?:适用|依照|依据|按照|援引|引用|应当适用)"
    r"[《“\"]?(?:中华人民共和国)?$"
)

#: What ends a charge's name (盗窃罪); a bare act (盗窃) lacks it.
CRIME_SUFFIX = "罪"
#: Words that deny the charge right after them (``不构成盗窃罪``, ``不以诈骗罪论处``, ``不应认定为抢劫罪``,
#: ``不属于职务侵占罪``); searched in the few characters before a charge.
CHARGE_NEGATION_BEFORE = re.compile(
    r"(?:(?:不|未|没有|无法)(?:应当?|宜|能|足以|再|予|可)?(?:构成|成立|认定为?|定性为|定为|以|涉嫌|属于|符合|按|转化为)"
    r"|而非|并非|而不是)$"
)
#: Words after a charge that deny it (``指控其犯盗窃罪不能成立``, ``诈骗罪的罪名不成立``).
CHARGE_NEGATION_AFTER = re.compile(r"(?:的?罪名)?(?:不能|不|难以)成立")
#: A charge the prosecution brought that the court rejects later in the sentence (公诉机关指控被告人犯盗窃罪的罪名不当，
#: 本院予以纠正 / 指控其犯诈骗罪的事实不清、证据不足，本院不予支持 / 指控被告人犯妨害公务罪，罪名有误): the accusation
#: before the charge, the rejection after it; not where the sentence tells a defence's submission (辩护人提出指控的
#: 盗窃罪证据不足的意见不予采纳), which the rejection answers.
CHARGE_ACCUSED = "指控"
#: An accusation written around its charge: 以 before it (``CHARGE_ACCUSED_WITH``: 以贪污罪, 以被告人方某犯…罪), the
#: accusation right after it (``CHARGE_ACCUSED_AFTER``: …对被告人刘某提起公诉, …指控不妥; not 以妨害公务罪论处).
CHARGE_ACCUSED_WITH = re.compile(r"以(?:被告人|被告单位)?[^，。；、以]{0,8}?犯?$")
CHARGE_ACCUSED_AFTER = re.compile(r"(?:(?:对|向)[^，。；、]{0,10}?)?(?:提起公诉|提出指控|指控|起诉)")
CHARGE_REJECTED_AFTER = re.compile(r"不当|有误|错误|不妥|不准确|定性不准|不予支持|不予认定|不予确认|证据不足|事实不清"
                                   r"|不能成立|不成立|予以纠正|予以变更|应予纠正|应予变更")
CHARGE_REJECTION_ANSWERS = re.compile(r"辩护|辩解|辩称|意见|上诉")
#: The court rejecting the accusation's charge without naming it again (公诉机关指控的罪名不当，本院予以变更 /
#: 指控被告人的罪名有误): the one charge the prosecution was said to bring before it is then not found, unless the court
#: names it too. Nothing between 指控 and 罪名 may be a charge (that one is rejected by CHARGE_REJECTED_AFTER).
CHARGE_NAME_REJECTED = re.compile(
    r"(?:指控[^。；，]{0,12}?的?罪名|(?:公诉机关|起诉书|检察院)[^。；，]{0,8}?(?:定性|罪名认定))"
    r"(?:[^。；]{0,4}?(?:不当|有误|错误|不妥|不准确?|不能成立|不成立)|[^。；，]{0,10}?不符(?!合)"
    r"|[^。；]{0,8}?(?:予以|应予|依法)(?:纠正|变更))")
#: The prosecution replacing the charge it brought (公诉机关当庭变更起诉罪名为故意伤害罪 / 将指控罪名变更为…罪): the
#: charge accused before it is no longer accused; the new one follows.
ACCUSATION_CHANGED = re.compile(r"(?:变更(?:起诉|指控)?罪名为|罪名变更为|变更为以?)")
#: A defence's submission (辩护人提出…应认定为故意伤害罪的意见): from its marker to 意见, 经查 or the sentence end; the
#: charges it proposes are not found when the court answers it with DEFENCE_REJECTED in that sentence or the next.
DEFENCE_SUBMISSION = re.compile(r"(?:辩护人|辩护意见|上诉人|被告人)[^。；]{0,6}?(?:提出|认为|辩称|辩解)[^。；]*?(?=意见|，经查|。|；|$)")
#: The court's answer to a submission: rejected, or (``DEFENCE_ACCEPTED``) accepted, whichever comes first.
DEFENCE_REJECTED = re.compile(r"不予采纳|不能成立|不予支持|不予认可|不予采信|不足采信|没有事实和法律依据")
DEFENCE_ACCEPTED = re.compile(r"予以采纳|意见成立|予以支持|予以认可|本院采纳")
#: What a defence proposes the charge be, right before it (应认定为故意伤害罪, 应以盗窃罪论处): the accused charge it
#: disputes (提出指控的盗窃罪证据不足的意见, 以盗窃罪起诉不当) is not its proposal.
DEFENCE_PROPOSES = re.compile(r"(?:认定为|定性为|定为|以|构成|属于|改判为?)$")
#: A bare act that names someone else's offence, not the text's: the proceeds or money of it (``PROCEEDS_AFTER``,
#: right after the act) in a sentence that speaks before of another person's crime or of knowing it
#: (``OTHERS_OFFENCE_BEFORE``): 明知是他人盗窃所得的电动车, 提供给他人用于接收电信诈骗资金. 伙同他人 / 与他人 … are the
#: suspect's accomplices, so the act is the suspect's own.
OTHERS_OFFENCE_BEFORE = re.compile(r"明知|上游犯罪|(?<!伙同)(?<!纠集)(?<!指使)(?<!雇佣)(?<!邀约)(?<![与和同])他人")
PROCEEDS_AFTER = re.compile(r"所得|所获|资金|赃款|赃物|款项|钱款|犯罪")
#: Characters of text before a charge searched for a negation.
CHARGE_NEGATION_WINDOW = 8
#: Text between two charges that keeps them in one list (``不构成盗窃罪、诈骗罪``: both denied).
CHARGE_LIST_GAP = re.compile(r"[、和及或与\s]*")

#: Text between two citations that keeps them in one list (``、``, ``，``, ``和``, ``及``, ``以及`` …).
LIST_GAP_PATTERN = re.compile(r"(?:[\s、，,;；:：和及与或/]|以及|或者|并且)*")

#: Sentence end: a law named before it no longer applies after it.
SENTENCE_END_CHARS = "。！？!?"
#: Where a clause ends: a sentence end, a semicolon or a line break (one statement of a judgment or a query).
CLAUSE_END_CHARS = SENTENCE_END_CHARS + "；;\n"
CLAUSE_RE = re.compile(f"[^{CLAUSE_END_CHARS}]+")
#: The title of a law, interpretation or document in 《》 (《关于审理抢劫、抢夺刑事案件适用法律若干问题的意见》): the
#: charges it names are not a case's.
DOCUMENT_TITLE_RE = re.compile(r"《[^《》\n]*》")

#: One number (Arabic, full-width or Chinese numerals).
NUM = NUMBER_PATTERN
#: Opening/closing parentheses, half- and full-width.
LPAREN = r"[（(]"
RPAREN = r"[）)]"

#: Separator inside one list of paragraphs or items of the same article (``第一、三款``, ``第（一）、（二）项``).
_SAME_ARTICLE_SEP = r"\s*[、，,和及]\s*"
#: One or more paragraph numbers before 款: ``一``, ``一、三``, ``一、第三``.
PARAGRAPH_LIST = rf"{NUM}(?:{_SAME_ARTICLE_SEP}第?\s*{NUM})*"
#: One or more bracketed item numbers before 项: ``（一）``, ``（一）、（二）``, ``(一)(二)``.
ITEM_LIST_PAREN = rf"{LPAREN}\s*{NUM}\s*{RPAREN}(?:(?:{_SAME_ARTICLE_SEP})?第?\s*{LPAREN}\s*{NUM}\s*{RPAREN})*"
#: One or more unbracketed item numbers before 项: ``一``, ``一、二``.
ITEM_LIST_PLAIN = rf"{NUM}(?:{_SAME_ARTICLE_SEP}第?\s*{NUM})*"
#: Splits a paragraph or item list into its numbers.
LIST_NUMBER = re.compile(NUM)

#: 第N条[之M][第K款][第（I）项] with optional spaces (条 may be missing before 规定 or 第K款, a frequent slip:
#: ``第三百四十七第一款``); groups: art, suf, para, item_p, item_n. ``art_d`` instead
#: of ``art``: a number without 第 (``刑法264条``, ``第六十四条、七十二条``), accepted by the parser only right
#: after a law name or in a list of citations (``卷烟十二条`` is a count, not a citation). ``para``, ``item_p`` and ``item_n`` may hold lists (``第一、三款``, ``第（一）、（二）项``)
#: that the parser expands into one reference each.
ARTICLE_PATTERN = (
    rf"(?:第\s*(?P<art>{NUM})\s*(?:条|(?=之?规定|的规定|第\s*{NUM}\s*款))|(?<![第.．{NUMERAL_CHARS}])(?P<art_d>{NUM})\s*条)"
    rf"(?:\s*之\s*(?P<suf>{NUM}))?"
    rf"(?:\s*第?\s*(?P<para>{PARAGRAPH_LIST})\s*款)?"
    rf"(?:\s*第?\s*(?P<item_p>{ITEM_LIST_PAREN})\s*项|\s*第\s*(?P<item_n>{ITEM_LIST_PLAIN})\s*项)?"
)
#: A paragraph continuing the previous article: ``第六十七条第一款、第三款``.
PARAGRAPH_PATTERN = (
    rf"第\s*(?P<cpara>{PARAGRAPH_LIST})\s*款"
    rf"(?:\s*第?\s*(?P<citem_p>{ITEM_LIST_PAREN})\s*项|\s*第\s*(?P<citem_n>{ITEM_LIST_PLAIN})\s*项)?"
)
#: An item continuing the previous article/paragraph: ``第十六条第（一）项、第（二）项``.
ITEM_PATTERN = rf"(?:第?\s*(?P<iitem_p>{ITEM_LIST_PAREN})|第\s*(?P<iitem_n>{ITEM_LIST_PLAIN}))\s*项"
