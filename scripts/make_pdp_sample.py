"""Generate the bundled PDP sample set ``src/jiancha/data/pdp_sample.jsonl`` (fictional, de-identified).

Every case is invented by the jiancha team from templates written for this purpose: the people, the events,
the case numbers and the URLs (``example.org``) are fictional; only province and ordinary county names are
real place names. The output is deterministic (seeded ``random.Random``); rerun with

    .venv/bin/python scripts/make_pdp_sample.py

Record layout and label strings follow PDP-Bench (see docs/pdp-protocol.md §1 in the shared reference).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import cn2an

SEED = 20240521
OUT = Path(__file__).resolve().parents[1] / "src" / "jiancha" / "data" / "pdp_sample.jsonl"
CPL2018_IN_FORCE = date(2018, 10, 26)
RULES2019_IN_FORCE = date(2019, 12, 30)

CL_NAME = "《中华人民共和国刑法》"
CPL_NAME = "《中华人民共和国刑事诉讼法》"
CPR_NAME = "《人民检察院刑事诉讼规则》"

# Canonical article form, used only to check this generator's own output.
_NUM = "[零一二三四五六七八九十百千]+"
CANONICAL_RE = re.compile(rf"^(cl|cpl|cpr):第{_NUM}条(之{_NUM})?(第{_NUM}款)?(第（{_NUM}）项)?$")

PROVINCES: dict[str, tuple[list[str], list[str]]] = {
    # province: (ordinary county names, ethnic groups besides 汉族 that appear there)
    "浙江省": (["长兴县", "德清县", "桐庐县"], []),
    "江苏省": (["沭阳县", "丰县", "涟水县"], []),
    "广东省": (["博罗县", "紫金县"], []),
    "四川省": (["仁寿县", "安岳县"], ["彝族"]),
    "河南省": (["固始县", "滑县"], ["回族"]),
    "山东省": (["莒县", "沂水县"], []),
    "湖南省": (["桃江县", "祁东县"], ["土家族"]),
    "湖北省": (["蕲春县", "郧西县"], []),
    "安徽省": (["怀远县", "临泉县"], []),
    "福建省": (["安溪县", "闽清县"], []),
    "江西省": (["都昌县", "于都县"], []),
    "内蒙古自治区": (["托克托县", "土默特左旗"], ["蒙古族"]),
    "广西壮族自治区": (["平南县", "博白县"], ["壮族"]),
    "云南省": (["陆良县", "弥渡县"], ["彝族", "白族"]),
    "河北省": (["正定县", "献县"], []),
    "贵州省": (["湄潭县", "织金县"], ["苗族"]),
    "陕西省": (["蒲城县", "洋县"], []),
    "新疆维吾尔自治区": (["玛纳斯县"], ["维吾尔族", "回族"]),
}

SURNAMES = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程魏苏吕丁沈")
EDUCATION = ["小学", "初中", "初中", "初中", "高中", "中专", "大专", "大学本科"]
OCCUPATIONS = ["无业", "农民", "务工人员", "个体经营者", "货车司机", "外卖骑手", "公司职员", "农民", "无业"]


def cn(n: int) -> str:
    return cn2an.an2cn(n)


def dzh(d: date) -> str:
    return f"{d.year}年{d.month}月{d.day}日"


def ym(d: date) -> str:
    return f"{d.year}年{d.month}月"


def hour(rng: random.Random) -> str:
    return f"{rng.choice([1, 2, 9, 10, 11, 14, 15, 16, 19, 20, 21, 22, 23])}时许"


@dataclass
class Case:
    decision: str
    charge: str          # key in CHARGES
    variant: str         # decision-specific circumstance
    old: bool            # dated before 2018-10-26: 2012-CPL numbering
    rng: random.Random
    province: str = ""
    county: str = ""
    name: str = ""
    gender: str = "男"
    victim: str = ""
    d: date = date(2020, 1, 1)         # signature date
    t: date = date(2020, 1, 1)         # transfer for review
    crime: date = date(2020, 1, 1)     # date of the (alleged) offence
    arts: list[str] = field(default_factory=list)

    after: str = ""                    # circumstances after the offence (surrender, restitution ...)
    caught: date | None = None         # date the suspect was caught, when the facts give one
    not_before: date | None = None     # earliest possible signature date (e.g. after a death)

    def catch(self, days: int) -> str:
        self.caught = self.crime + timedelta(days=days)
        return dzh(self.caught)

    @property
    def police(self) -> str:
        return f"{self.county}公安局"

    def cite(self, law: str, body: str) -> str:
        """Record ``law:body`` as cited and return ``body`` for the running text."""
        self.arts.append(f"{law}:{body}")
        return body

    def cpl(self, old2012: str, new2018: str) -> str:
        return self.cite("cpl", old2012 if self.old else new2018)


def canonical_order(arts: list[str]) -> list[str]:
    seen: list[str] = []
    for a in arts:
        if a not in seen:
            seen.append(a)
    return [a for law in ("cl", "cpl", "cpr") for a in seen if a.split(":")[0] == law]


# ---------------------------------------------------------------------------------------------------------
# Charges: name of the offence, Criminal Law article cited for it, evidence kinds, and a narrative builder
# returning the facts for a mode: "p" (ordinary, prosecuted), "dnp" (minor), "ienp" (alleged, contested),
# or an SNP ground handled in ``snp_story``.
# ---------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Charge:
    crime: str
    article: str
    evidence: tuple[str, ...]


CHARGES: dict[str, Charge] = {
    "盗窃": Charge("盗窃罪", "第二百六十四条", ("受案登记表、立案决定书、到案经过等书证", "被害人{v}的陈述",
                                            "证人证言", "犯罪嫌疑人{n}的供述和辩解", "价格认定结论书",
                                            "调取证据清单、扣押决定书、发还清单", "现场勘验检查笔录及照片", "视听资料（监控视频）")),
    "危险驾驶": Charge("危险驾驶罪", "第一百三十三条之一第一款第（二）项",
                   ("受案登记表、立案决定书、到案经过", "呼气酒精含量检测单", "血液乙醇含量司法鉴定意见书",
                    "驾驶人信息查询结果、机动车信息查询结果", "执法记录仪视频", "证人证言", "犯罪嫌疑人{n}的供述和辩解")),
    "故意伤害": Charge("故意伤害罪", "第二百三十四条第一款",
                   ("受案登记表、立案决定书、到案经过", "被害人{v}的陈述", "证人证言", "犯罪嫌疑人{n}的供述和辩解",
                    "法医学人体损伤程度鉴定书", "病历资料", "现场勘验检查笔录及辨认笔录", "视听资料")),
    "诈骗": Charge("诈骗罪", "第二百六十六条",
                 ("受案登记表、立案决定书、到案经过", "被害人{v}的陈述", "银行交易明细、微信支付转账记录",
                  "聊天记录截图", "犯罪嫌疑人{n}的供述和辩解", "电子数据检查笔录", "退赃收据")),
    "交通肇事": Charge("交通肇事罪", "第一百三十三条",
                   ("受案登记表、立案决定书、到案经过", "道路交通事故认定书", "现场勘查笔录、现场图及照片",
                    "尸体检验鉴定意见书", "车辆技术检验鉴定意见书", "证人证言", "犯罪嫌疑人{n}的供述和辩解",
                    "赔偿协议及谅解书")),
    "帮信": Charge("帮助信息网络犯罪活动罪", "第二百八十七条之二第一款",
                 ("受案登记表、立案决定书、到案经过", "银行开户资料及交易明细", "被害人{v}的陈述及报案材料",
                  "聊天记录等电子数据", "证人证言", "犯罪嫌疑人{n}的供述和辩解", "调取证据通知书及回执")),
    "掩隐": Charge("掩饰、隐瞒犯罪所得罪", "第三百一十二条第一款",
                 ("受案登记表、立案决定书、到案经过", "证人证言", "上游犯罪行为人的供述", "犯罪嫌疑人{n}的供述和辩解",
                  "扣押决定书、扣押清单", "价格认定结论书", "转账记录")),
    "寻衅滋事": Charge("寻衅滋事罪", "第二百九十三条第一款第（一）项",
                   ("受案登记表、立案决定书、到案经过", "被害人{v}等人的陈述", "证人证言", "犯罪嫌疑人{n}的供述和辩解",
                    "法医学人体损伤程度鉴定书", "监控视频及截图", "辨认笔录")),
    "毒品": Charge("非法持有毒品罪", "第三百四十八条",
                 ("受案登记表、立案决定书、到案经过", "搜查笔录、扣押笔录及扣押清单", "称量笔录", "毒品检验鉴定意见",
                  "证人证言", "犯罪嫌疑人{n}的供述和辩解", "现场照片及执法记录仪视频")),
    "赌场": Charge("开设赌场罪", "第三百零三条第二款",
                 ("受案登记表、立案决定书、到案经过", "参赌人员证言", "犯罪嫌疑人{n}的供述和辩解", "扣押清单（赌资、赌具）",
                  "微信群聊天记录及账户流水等电子数据", "现场勘验检查笔录")),
    "捕捞": Charge("非法捕捞水产品罪", "第三百四十条",
                 ("受案登记表、立案决定书、到案经过", "农业农村部门出具的认定意见", "扣押清单（渔获物、捕捞工具）",
                  "称重记录及照片", "证人证言", "犯罪嫌疑人{n}的供述和辩解", "现场勘验笔录")),
    "失火": Charge("失火罪", "第一百一十五条第二款",
                 ("受案登记表、立案决定书、到案经过", "火灾事故认定书", "林业部门出具的过火面积调查报告",
                  "证人证言", "犯罪嫌疑人{n}的供述和辩解", "现场勘验笔录及照片", "损失评估报告")),
    "抢夺": Charge("抢夺罪", "第二百六十七条第一款",
                 ("受案登记表、立案决定书、到案经过", "被害人{v}的陈述", "证人证言", "犯罪嫌疑人{n}的供述和辩解",
                  "价格认定结论书", "监控视频", "辨认笔录")),
    "侵占": Charge("侵占罪", "第二百七十条第一款",
                 ("报案材料", "被害人{v}的陈述", "证人证言", "犯罪嫌疑人{n}的供述和辩解", "保管协议及微信聊天记录")),
}


def money(rng: random.Random, lo: int, hi: int, step: int = 10) -> int:
    return rng.randrange(lo // step, hi // step + 1) * step


def story(c: Case, mode: str) -> tuple[str, str]:
    """Narrative of the offence and the circumstances after it (second string, may be empty)."""
    r, n, v, k = c.rng, c.name, c.victim, c.county
    when = f"{dzh(c.crime)}{hour(r)}"
    ch = c.charge
    after = ""
    if ch == "盗窃":
        if mode == "p":
            amt = money(r, 4200, 26000)
            s = r.choice([
                (f"{when}，犯罪嫌疑人{n}窜至{k}某小区，趁无人之机，用随身携带的螺丝刀撬开被害人{v}家房门入户，"
                f"窃取其卧室抽屉内的现金人民币{money(r, 800, 3000, 100)}元及黄金项链一条。"),
                (f"{when}，犯罪嫌疑人{n}在{k}城区某路段，用自制钥匙打开被害人{v}停放在路边的二轮电动车电门锁，"
                f"将该车骑走后以人民币六百元的价格销赃。此后至案发，{n}采用相同手段先后盗窃电动车五辆。"),
                f"{when}，犯罪嫌疑人{n}在{k}某手机店内，趁店员被害人{v}不备，窃取柜台内展示的手机三部。",
            ])
            late = 0
            if r.random() < 0.5:
                late = 30
                later = c.crime + timedelta(days=r.randint(3, 25))
                s += (f"{dzh(later)}{hour(r)}，犯罪嫌疑人{n}又在{k}某菜市场内，趁摊主郑某某忙于招揽生意之机，"
                      f"窃取其放在摊位抽屉内的手机一部及现金人民币{money(r, 200, 900, 10)}元。")
            s += f"经{k}价格认证中心认定，被盗物品价值共计人民币{amt}元。"
            after = f"{c.catch(r.randint(3, 20) + late)}，犯罪嫌疑人{n}被公安民警抓获，到案后如实供述了上述事实。"
        elif mode == "dnp":
            amt = money(r, 1200, 2900)
            s = (f"{when}，犯罪嫌疑人{n}在{k}某超市内，趁被害人{v}在货架前挑选商品之机，将其放在购物车内的手提包中的"
                 f"钱包窃走，钱包内有现金人民币{amt}元。")
            after = (f"案发当日，犯罪嫌疑人{n}在家人陪同下到{c.police}某派出所投案，如实供述了自己的罪行，"
                     f"并全部退还赃款，被害人{v}对其表示谅解。")
        else:  # ienp
            amt = money(r, 3000, 9000)
            s = (f"{when}，犯罪嫌疑人{n}在{k}某工地宿舍内，趁同宿舍工友被害人{v}外出之机，窃取其放在床铺枕头下的现金"
                 f"人民币{amt}元。")
            after = (f"犯罪嫌疑人{n}到案后始终否认盗窃，辩称当日一直在工地干活；宿舍无监控，另有两名工友在案发时段进出宿舍；"
                     f"赃款未追回，{n}案发后所存的现金来源于其本人工资的辩解有银行取款记录印证。")
    elif ch == "危险驾驶":
        bac = {"p": r.randint(135, 246), "dnp": r.randint(82, 108), "ienp": r.randint(90, 150)}[mode]
        if mode == "p":
            s = (f"{when}，犯罪嫌疑人{n}饮酒后驾驶小型轿车沿{k}城区某路由东向西行驶，途中与停放在路边的一辆小型"
                 f"普通客车发生碰撞，造成两车受损。")
        else:
            s = (f"{when}，犯罪嫌疑人{n}在{k}某饭店与朋友聚餐饮酒后，驾驶小型轿车从饭店门前驶出，"
                 f"行驶约{r.randint(300, 900)}米后，在某路口被执勤民警拦停检查。")
        s += f"经呼气酒精含量检测，结果为{bac + r.randint(-8, 8)}mg/100ml；经司法鉴定，其血液中乙醇含量为{bac}mg/100ml。"
        if mode == "p":
            after = f"犯罪嫌疑人{n}在事故发生后报警并在现场等候处理，到案后如实供述了自己的罪行。"
        else:
            after = f"犯罪嫌疑人{n}持有合法有效的机动车驾驶证，此前无酒后驾驶违法记录，到案后如实供述了自己的罪行。"
    elif ch == "故意伤害":
        cause = r.choice(["宅基地边界", "停车位", "琐事", "工钱结算", "田间灌溉用水"])
        if mode == "p":
            s = (f"{when}，犯罪嫌疑人{n}在{k}某村因{cause}问题与被害人{v}发生争吵，继而持木棍击打{v}头部、左臂，"
                 f"致{v}受伤。经鉴定，{v}左侧尺骨骨折，损伤程度为轻伤一级。")
            after = f"犯罪嫌疑人{n}于{c.catch(2)}被公安民警抓获，到案后如实供述了自己的罪行。"
        elif mode == "dnp":
            s = (f"{when}，犯罪嫌疑人{n}与邻居被害人{v}因{cause}问题发生口角，后双方相互推搡，{n}用拳头击打{v}面部，"
                 f"致{v}受伤。经鉴定，{v}鼻骨骨折，损伤程度为轻伤二级。")
            after = (f"案发后，犯罪嫌疑人{n}主动到{c.police}某派出所投案，如实供述了自己的罪行；"
                     f"后{n}赔偿被害人{v}经济损失人民币{money(r, 20000, 60000, 1000)}元，取得了{v}的谅解。")
        else:
            s = (f"{when}，犯罪嫌疑人{n}在{k}某烧烤店门口因{cause}问题与被害人{v}发生争执，双方相互殴打，"
                 f"{n}用拳脚击打{v}胸部，致{v}受伤。经鉴定，{v}右侧第五、六肋骨骨折，损伤程度为轻伤二级。")
            after = (f"犯罪嫌疑人{n}辩称系{v}先动手，自己只推搡了{v}一下；在场证人刘某某称看到{n}踢踹{v}，"
                     f"证人孙某称双方扭打在一起，未看清谁踢打了{v}胸部；{v}当晚离开现场后曾骑电动车摔倒，"
                     f"其肋骨骨折的形成时间与成因未能查清。")
    elif ch == "诈骗":
        if mode == "p":
            amt = money(r, 12000, 86000, 100)
            s = r.choice([
                (f"{dzh(c.crime)}至{dzh(c.crime + timedelta(days=40))}，犯罪嫌疑人{n}虚构能帮助被害人{v}的子女安排工作的事实，"
                f"以需要打点关系为由，先后三次骗取{v}人民币共计{amt}元，所得款项用于偿还个人债务及日常开销。"),
                (f"{dzh(c.crime)}，犯罪嫌疑人{n}在网络二手交易平台发布虚假的低价手机出售信息，被害人{v}信以为真，"
                f"通过微信向{n}转账购机款人民币{amt}元，{n}收款后即将{v}拉黑。"),
            ])
            if r.random() < 0.6:
                s += (f"此外，犯罪嫌疑人{n}还以同样手段骗取被害人许某某人民币{money(r, 3000, 9000, 100)}元。"
                      f"案发后，公安机关从{n}处扣押赃款人民币{money(r, 1000, 3000, 100)}元。")
            after = f"犯罪嫌疑人{n}于{c.catch(r.randint(45, 90))}被抓获归案，到案后如实供述了上述事实。"
        elif mode == "dnp":
            amt = money(r, 3200, 5800, 100)
            s = (f"{dzh(c.crime)}，犯罪嫌疑人{n}以其母亲生病住院急需用钱为由，向同村村民被害人{v}借款，"
                 f"骗得{v}人民币{amt}元后用于网络游戏充值。")
            after = f"案发后，犯罪嫌疑人{n}主动投案，如实供述了自己的罪行，并退赔了被害人{v}的全部损失，取得了{v}的谅解。"
        else:
            amt = money(r, 60000, 150000, 1000)
            s = (f"{dzh(c.crime)}，犯罪嫌疑人{n}以承包{k}某道路工程需要垫资为由，向被害人{v}借款人民币{amt}元，"
                 f"约定三个月后归还，后{n}未归还借款。")
            after = (f"犯罪嫌疑人{n}辩称该工程确有其事，借款已投入工程施工，因工程款未结算才无力归还，并提供了部分材料采购单据；"
                     f"工程发包方负责人称曾与{n}洽谈过工程，但未签订书面合同；借款的具体去向未能查清。")
    elif ch == "交通肇事":
        if mode == "p":
            s = (f"{when}，犯罪嫌疑人{n}驾驶重型半挂牵引车沿{k}境内某国道由北向南行驶，在通过某交叉路口时，"
                 f"未按规定减速让行，与被害人{v}驾驶的二轮摩托车发生碰撞，致{v}当场死亡、两车受损。"
                 f"经{c.police}交通管理大队认定，{n}负事故的主要责任，{v}负次要责任。")
            after = f"事故发生后，犯罪嫌疑人{n}驾车逃离现场，于次日被公安民警抓获。"
            c.catch(1)
        else:
            s = (f"{when}，犯罪嫌疑人{n}驾驶小型轿车沿{k}境内某县道行驶，在超越前方车辆时与对向驶来的被害人{v}"
                 f"驾驶的电动三轮车发生碰撞，致{v}受伤，经送医抢救无效死亡。经{c.police}交通管理大队认定，"
                 f"{n}负事故的主要责任。")
            after = (f"事故发生后，犯罪嫌疑人{n}立即拨打急救电话和报警电话，在现场等候处理，如实供述了事故经过；"
                     f"后{n}与被害人{v}的近亲属达成赔偿协议，赔偿经济损失人民币{money(r, 300000, 700000, 10000)}元，取得了谅解。")
    elif ch == "帮信":
        cards = r.randint(2, 5)
        flow = money(r, 300000, 2600000, 100)
        if mode == "p":
            s = (f"{dzh(c.crime)}，犯罪嫌疑人{n}明知他人利用信息网络实施犯罪，仍将其本人办理的{cn(cards)}张银行卡及配套的"
                 f"U盾、手机卡，以每张人民币{r.choice([500, 800, 1000])}元的价格出售给他人使用。经查，上述银行卡"
                 f"支付结算金额共计人民币{flow}元，其中查实电信网络诈骗被害人{v}等三人被骗资金共计人民币"
                 f"{money(r, 40000, 180000, 100)}元转入上述银行卡。")
            after = f"犯罪嫌疑人{n}于{c.catch(r.randint(20, 60))}被公安民警抓获，到案后如实供述了上述事实。"
        elif mode == "dnp":
            s = (f"{dzh(c.crime)}，在校学生犯罪嫌疑人{n}经同学介绍，明知他人可能利用银行卡实施违法犯罪，仍将其本人的"
                 f"一张银行卡出租给他人使用，获利人民币{cn(r.choice([3, 5, 6]))}百元。经查，该卡支付结算金额共计人民币"
                 f"{money(r, 210000, 320000, 100)}元，其中查实被害人{v}被骗资金人民币{money(r, 8000, 20000, 100)}元转入该卡。")
            after = f"犯罪嫌疑人{n}到案后如实供述了自己的罪行，自愿认罪认罚，并退缴了全部违法所得。"
        else:
            s = (f"{dzh(c.crime)}，犯罪嫌疑人{n}将其本人办理的一张银行卡及配套U盾交给朋友李某某使用。经查，该卡被用于"
                 f"接收电信网络诈骗资金，支付结算金额共计人民币{flow}元，其中被害人{v}被骗资金人民币"
                 f"{money(r, 30000, 90000, 100)}元转入该卡。")
            after = (f"犯罪嫌疑人{n}辩称李某某以做生意收款为由向其借卡，其不知道李某某用卡实施犯罪，未获取任何好处；"
                     f"李某某在逃，{n}与李某某的聊天记录已被删除无法恢复，{n}是否明知他人利用信息网络实施犯罪无其他证据证实。")
    elif ch == "掩隐":
        if mode in ("p", "dnp"):
            amt = money(r, 9000, 32000, 100) if mode == "p" else money(r, 1500, 3500, 100)
            goods = "二轮电动车八辆" if mode == "p" else "电缆线约六十米"
            span = r.randint(20, 70)
            c.catch(span + r.randint(1, 10))
            s = (f"{dzh(c.crime)}至{dzh(c.crime + timedelta(days=span))}，犯罪嫌疑人{n}在其经营的{k}某废品收购站，"
                 f"明知上游犯罪行为人王某某（另案处理）所出售的{goods}系盗窃所得，仍以明显低于市场价格的价格予以收购。"
                 f"经{k}价格认证中心认定，上述物品价值共计人民币{amt}元。")
            after = (f"犯罪嫌疑人{n}到案后如实供述了上述事实。" if mode == "p"
                     else f"犯罪嫌疑人{n}到案后如实供述了自己的罪行，并协助公安机关追回全部赃物，已发还被害单位。")
        else:
            amt = money(r, 12000, 40000, 100)
            s = (f"{dzh(c.crime)}，犯罪嫌疑人{n}以人民币{money(r, 3000, 6000, 100)}元的价格从刘某某（另案处理）处收购手机十部，"
                 f"经认定价值人民币{amt}元，上述手机系刘某某盗窃所得。")
            after = (f"犯罪嫌疑人{n}辩称刘某某自称手机是其经营的手机店的库存机，并出示了进货单，其不知道是赃物；"
                     f"刘某某先称曾告知{n}手机来路不正，后又改称未告知；二人交易时无他人在场。")
    elif ch == "寻衅滋事":
        if mode == "p":
            s = (f"{when}，犯罪嫌疑人{n}酒后在{k}某烧烤店内，因嫌邻桌顾客被害人{v}等人说话声音大，无故上前辱骂，"
                 f"并持啤酒瓶击打{v}头部，又用拳脚殴打前来劝阻的被害人周某某，致{v}、周某某受伤。经鉴定，"
                 f"{v}、周某某的损伤程度均为轻微伤。同月，{n}在某KTV内又无故殴打服务员一名。")
            after = f"犯罪嫌疑人{n}于{c.catch(r.randint(20, 50))}被公安民警抓获。"
        elif mode == "dnp":
            s = (f"{when}，犯罪嫌疑人{n}酒后在{k}某网吧内，因上网机位问题与网管被害人{v}发生争执，随意殴打{v}，"
                 f"并推倒网吧电脑两台，致{v}受轻微伤，造成财物损失人民币{money(r, 2000, 4500, 100)}元。")
            after = f"案发后，犯罪嫌疑人{n}主动投案，如实供述了自己的罪行，并赔偿了被害人{v}及网吧的全部损失，取得了谅解。"
        else:
            s = (f"{when}，犯罪嫌疑人{n}伙同他人在{k}某夜市内，无故拦截并殴打被害人{v}，致{v}左眼眶骨折，"
                 f"损伤程度为轻伤二级。")
            after = (f"犯罪嫌疑人{n}辩称其当晚在场但未动手，是去拉架；被害人{v}无法辨认殴打者；证人证言对{n}是否参与殴打"
                     f"说法不一，现场监控视频模糊，不能辨认打人者面部，同案人员均未到案。")
    elif ch == "毒品":
        g = round(r.uniform(10.5, 38.0), 2) if mode == "p" else round(r.uniform(11.0, 24.0), 2)
        if mode == "p":
            s = (f"{when}，公安民警在{k}某宾馆房间内将犯罪嫌疑人{n}抓获，当场从其随身携带的挎包内查获疑似毒品"
                 f"甲基苯丙胺（冰毒）{cn(r.randint(2, 4))}包，净重{g}克。经鉴定，上述疑似毒品中均检出甲基苯丙胺成分。")
            after = f"犯罪嫌疑人{n}到案后如实供述了上述毒品系其从他人处购买用于自己吸食的事实。"
        else:
            s = (f"{when}，公安民警在{k}某出租屋内查获疑似毒品甲基苯丙胺（冰毒）净重{g}克，认定系租住该房屋的"
                 f"犯罪嫌疑人{n}非法持有。经鉴定，检出甲基苯丙胺成分。")
            after = (f"犯罪嫌疑人{n}辩称毒品系经常在该屋留宿的朋友黄某所留，其本人不知情；该房屋还有另外两人持有钥匙；"
                     f"毒品包装上未提取到{n}的指纹，{n}尿检结果呈阴性，黄某下落不明。")
    elif ch == "赌场":
        if mode in ("p", "dnp"):
            days = r.randint(8, 30) if mode == "p" else r.randint(2, 4)
            tip = money(r, 18000, 60000, 100) if mode == "p" else money(r, 1500, 4500, 100)
            c.catch(days + r.randint(1, 10))
            s = (f"{dzh(c.crime)}起，犯罪嫌疑人{n}在{k}某村其租用的民房内，召集他人以“推筒子”方式进行赌博，"
                 f"由其提供场所、赌具并负责抽头，共开设赌局{cn(days)}天，每局参赌人员十余人，"
                 f"{n}从中抽头渔利共计人民币{tip}元。")
            if mode == "p" and r.random() < 0.5:
                s = (f"{dzh(c.crime)}至{dzh(c.crime + timedelta(days=days))}，犯罪嫌疑人{n}建立微信群，组织群成员"
                     f"以抢“红包接龙”方式进行赌博，由其担任群主负责结算并按每轮“红包”金额的百分之五抽头，"
                     f"群成员{r.randint(40, 120)}余人，赌资流水人民币{money(r, 200000, 900000, 1000)}元，"
                     f"{n}从中抽头渔利人民币{tip}元。")
            after = (f"犯罪嫌疑人{n}到案后如实供述了上述事实。" if mode == "p"
                     else f"犯罪嫌疑人{n}经公安机关电话通知后主动到案，如实供述了自己的罪行，并退缴了全部违法所得。")
        else:
            s = (f"{dzh(c.crime)}，公安民警在{k}某茶楼包厢内查获赌博活动，现场扣押赌资人民币{money(r, 8000, 25000, 100)}元。"
                 f"公安机关认定该茶楼经营者犯罪嫌疑人{n}为赌博提供场所并抽头渔利。")
            after = (f"犯罪嫌疑人{n}辩称包厢系按小时出租的普通茶室，其不知道顾客在包厢内赌博，只收取茶水费；"
                     f"参赌人员中有两人称{n}收取了“台费”，另三人称只付了茶水费；抽头数额无账目等证据证实。")
    elif ch == "捕捞":
        kg = round(r.uniform(32, 120), 1) if mode == "p" else round(r.uniform(6, 15), 1)
        tool = r.choice(["电鱼器具", "“绝户网”（地笼网）"])
        s = (f"{when}，犯罪嫌疑人{n}在禁渔期内，驾驶小船至{k}境内某河段（禁渔区），使用{tool}非法捕捞水产品，"
             f"被渔政执法人员当场查获，现场扣押渔获物鲫鱼、鲤鱼等共计{kg}公斤。经农业农村部门认定，"
             f"{n}使用的{tool}属于禁用渔具。")
        after = (f"犯罪嫌疑人{n}到案后如实供述了上述事实。" if mode == "p"
                 else f"犯罪嫌疑人{n}到案后如实供述了自己的罪行，自愿认罪认罚，并自愿出资购买鱼苗{r.randint(8, 20)}万尾"
                      f"在该河段进行增殖放流，修复生态环境。")
    elif ch == "失火":
        area = round(r.uniform(80, 260), 1) if mode == "p" else round(r.uniform(12, 25), 1)
        s = (f"{when}，犯罪嫌疑人{n}在{k}某村山坡自家承包地内焚烧杂草时，疏于看管，火势蔓延引发山林火灾。"
             f"经林业部门调查，过火有林地面积{area}亩，经评估，造成林木损失价值人民币{money(r, 20000, 180000, 100)}元。")
        after = (f"犯罪嫌疑人{n}在起火后参与扑救，到案后如实供述了上述事实。" if mode == "p"
                 else f"起火后犯罪嫌疑人{n}拨打报警电话并参与扑救，到案后如实供述了自己的罪行，"
                      f"并赔偿了林权人全部损失，补种树苗，取得了谅解。")
    elif ch == "抢夺":
        if mode == "p":
            amt = money(r, 2600, 9000, 100)
            s = (f"{when}，犯罪嫌疑人{n}驾驶二轮摩托车在{k}城区某路段尾随步行的被害人{v}，趁其不备，"
                 f"抢走{v}手中的手机一部及挎包一个，挎包内有现金人民币{money(r, 300, 1200, 100)}元。"
                 f"经认定，被抢物品价值共计人民币{amt}元。")
            after = f"犯罪嫌疑人{n}于{c.catch(r.randint(5, 25))}被抓获，到案后如实供述了上述事实。"
        else:
            s = (f"{when}，被害人{v}在{k}某集市内被人抢走挎在肩上的挎包一个，包内有现金人民币"
                 f"{money(r, 2000, 5000, 100)}元及手机一部。公安机关认定系犯罪嫌疑人{n}所为。")
            after = (f"犯罪嫌疑人{n}否认抢夺，辩称当日未去过该集市；被害人{v}对{n}的两次辨认结论不一致；"
                     f"集市监控未拍到抢夺过程，被抢财物未追回，{n}的手机基站轨迹显示其当日在邻镇。")
    else:
        raise ValueError(f"no story for {ch} in mode {mode}")
    return s, after


#: What a kind of evidence shows, by keyword (first match wins); used to vary the length of evidence lists.
PROVES: tuple[tuple[str, str], ...] = (
    ("受案登记表", "证实案件来源及犯罪嫌疑人{n}的到案经过"),
    ("报案材料", "证实案件来源"),
    ("被害人", "证实其被侵害的时间、地点、经过及损失情况"),
    ("参赌人员", "证实赌博的时间、地点、方式及抽头情况"),
    ("证人证言", "证实其所知悉的案发经过"),
    ("上游犯罪", "证实涉案物品的来源及交易情况"),
    ("供述和辩解", "其对上述事实供认不讳"),
    ("价格认定", "证实涉案物品的价值"),
    ("事故认定书", "证实事故发生经过及责任划分"),
    ("乙醇", "证实犯罪嫌疑人{n}血液中的乙醇含量"),
    ("呼气", "证实犯罪嫌疑人{n}案发时的呼气酒精含量"),
    ("损伤程度", "证实被害人的损伤程度"),
    ("尸体检验", "证实被害人的死亡原因"),
    ("毒品检验", "证实查获物品中检出的毒品成分"),
    ("称量", "证实查获毒品的净重"),
    ("病历", "证实被害人的伤情及诊治经过"),
    ("交易明细", "证实涉案资金的流转情况"),
    ("流水", "证实涉案资金的流转情况"),
    ("转账", "证实涉案资金的支付情况"),
    ("扣押", "证实涉案物品的扣押及处理情况"),
    ("勘验", "证实案发现场的情况"),
    ("勘查", "证实事故现场的情况"),
    ("聊天记录", "证实犯罪嫌疑人与相关人员的联络情况"),
    ("监控", "证实案发经过"),
    ("视频", "证实案发经过"),
    ("过火面积", "证实过火林地面积"),
    ("认定意见", "证实涉案渔具系禁用渔具"),
    ("谅解书", "证实犯罪嫌疑人赔偿被害人损失并取得谅解的情况"),
    ("死亡", "证实犯罪嫌疑人已经死亡"),
    ("出生", "证实犯罪嫌疑人的出生日期"),
    ("户籍", "证实犯罪嫌疑人的身份情况"),
)


def _proves(item: str) -> str:
    return next((p for k, p in PROVES if k in item), "")


def evidence(c: Case, extra: tuple[str, ...] = (), *, lead: str = "认定上述事实的证据如下：") -> str:
    r = c.rng
    items = list(CHARGES[c.charge].evidence)
    k = r.randint(max(4, len(items) - 2), len(items))
    items = items[:k] + list(extra)
    if r.random() < 0.4:
        items.append("犯罪嫌疑人户籍证明、违法犯罪记录查询情况")
    detail = r.choice([0.0, 0.4, 0.8, 1.0])
    out = []
    for e in items:
        pv = _proves(e)
        if pv and r.random() < detail:
            if pv.startswith("其") and c.decision == "存疑不起诉":
                pv = "其否认实施上述行为"
            e = f"{e}，{pv}"
        out.append(e.format(n=c.name, v=c.victim))
    return lead + "；".join(f"{i}.{e}" for i, e in enumerate(out, 1)) + "。"


# ---------------------------------------------------------------------------------------------------------
# The three document parts that are model inputs.
# ---------------------------------------------------------------------------------------------------------

def person_info(c: Case, measures: str, birth: date, prior: str) -> str:
    k, r = c.county, c.rng
    others = PROVINCES[c.province][1]
    eth = r.choice(others) if others and r.random() < 0.35 else "汉族"
    edu = "初中" if c.variant == "minor_age" else r.choice(EDUCATION)
    occ = "学生" if c.variant in ("minor_age",) or (c.charge == "帮信" and c.decision == "相对不起诉") else r.choice(OCCUPATIONS)
    home = f"户籍所在地{c.province}{k}"
    if r.random() < 0.4 or len(prior + measures) < 60:
        home += f"，现住{c.province}{k}{r.choice(['城关镇', '某镇某村', '某街道某小区'])}"
    return f"犯罪嫌疑人{c.name}，{c.gender}，{ym(birth)}出生，{eth}，{edu}文化，{occ}，{home}。{prior}{measures}"


def measures(c: Case, kind: str) -> str:
    """Coercive measures. kind: arrest, bail, bail_direct, rsl (residential surveillance)."""
    r, p, cr = c.rng, c.police, c.charge
    crime = CHARGES[cr].crime
    det = c.caught or c.crime + timedelta(days=r.randint(0, 3))
    if kind == "late":
        det = c.t - timedelta(days=r.randint(40, 80))
    if kind == "arrest":
        arr = det + timedelta(days=r.randint(7, 29))
        return (f"因涉嫌{crime}，于{dzh(det)}被{p}刑事拘留，{dzh(arr)}经本院批准，次日由{p}执行逮捕。"
                f"现羁押于{c.county}看守所。")
    if kind == "bail":
        bail = det + timedelta(days=r.randint(5, 25))
        tail = f"{dzh(c.t + timedelta(days=r.randint(1, 5)))}经本院决定继续取保候审。" if r.random() < 0.6 else ""
        return f"因涉嫌{crime}，于{dzh(det)}被{p}刑事拘留，{dzh(bail)}被{p}取保候审。{tail}"
    if kind == "bail_direct":
        return (f"因涉嫌{crime}，于{dzh(det)}被{p}取保候审，"
                f"{dzh(c.t + timedelta(days=r.randint(1, 6)))}经本院决定取保候审。")
    if kind == "rsl":
        rsl = det + timedelta(days=r.randint(10, 30))
        return f"因涉嫌{crime}，于{dzh(det)}被{p}刑事拘留，{dzh(rsl)}被{p}指定居所监视居住，后变更为取保候审。"
    if kind == "late":
        return f"因涉嫌{crime}，于{dzh(det)}被{p}取保候审。"
    raise ValueError(kind)


def procedure(c: Case, *, returns: int, extend: bool, plea: bool, hearing: bool = False,
              victim: bool = True) -> str:
    r, p, n = c.rng, c.police, c.name
    crime = CHARGES[c.charge].crime
    parts = [f"本案由{p}侦查终结，以犯罪嫌疑人{n}涉嫌{crime}，于{dzh(c.t)}向本院移送审查起诉。"]
    notice = c.t + timedelta(days=r.randint(1, 3))
    who = "告知被害人及其近亲属有权委托诉讼代理人，" if victim else ""
    if c.old:
        parts.append(f"本院受理后，于{dzh(notice)}已告知犯罪嫌疑人有权委托辩护人，{who}依法讯问了犯罪嫌疑人，"
                     f"审查了全部案件材料。")
    else:
        lawyer = r.choice(["值班律师", "辩护人"])
        parts.append(f"本院受理后，于{dzh(notice)}已告知犯罪嫌疑人有权委托辩护人和认罪认罚可能导致的法律后果，{who}"
                     f"依法讯问了犯罪嫌疑人，听取了{lawyer}{'和被害人' if victim else ''}的意见，审查了全部案件材料。")
    cursor = notice
    if extend:
        cursor = cursor + timedelta(days=r.randint(20, 28))
        parts.append(f"因案情复杂，本院于{dzh(cursor)}决定延长审查起诉期限{r.choice(['十五日', '半个月'])}。")
    for i in range(returns):
        back = cursor + timedelta(days=r.randint(5, 15))
        again = back + timedelta(days=r.randint(25, 30))
        nth = "" if returns == 1 else ("第一次" if i == 0 else "第二次")
        parts.append(f"其间，本院于{dzh(back)}{nth}退回{p}补充侦查，{p}于{dzh(again)}补查重报。" if i == 0 else
                     f"本院于{dzh(back)}{nth}退回{p}补充侦查，{p}于{dzh(again)}补查重报。")
        cursor = again
    if plea and not c.old:
        parts.append(f"犯罪嫌疑人{n}自愿如实供述涉嫌的犯罪事实，对指控的犯罪事实和证据没有异议，同意检察机关的量刑建议，"
                     f"在{r.choice(['值班律师', '辩护人'])}的见证下签署了认罪认罚具结书。")
    if hearing:
        cursor = cursor + timedelta(days=r.randint(3, 10))
        parts.append(f"本院于{dzh(cursor)}就本案召开公开听证会，听取了听证员、人民监督员及案件当事人的意见。")
    return "".join(parts), cursor


# ---------------------------------------------------------------------------------------------------------
# Plan: 24 P, 12 DNP, 12 SNP, 12 IENP; "old" = signed before 2018-10-26 (2012-CPL numbering).
# ---------------------------------------------------------------------------------------------------------

PLAN: list[tuple[str, str, str, bool]] = [
    # decision, charge, variant, old
    *[("起诉", ch, "p", True) for ch in ["盗窃", "危险驾驶", "故意伤害", "诈骗", "交通肇事", "掩隐", "寻衅滋事", "赌场"]],
    *[("起诉", ch, "p", False) for ch in ["盗窃", "盗窃", "危险驾驶", "危险驾驶", "故意伤害", "交通肇事", "帮信",
                                        "掩隐", "寻衅滋事", "毒品", "赌场", "捕捞", "失火", "抢夺"]],
    ("起诉", "诈骗", "p_two_returns", False),   # prosecuted after two supplementary investigations
    ("起诉", "帮信", "p_two_returns", False),
    *[("相对不起诉", ch, "dnp", True) for ch in ["盗窃", "危险驾驶", "故意伤害", "交通肇事"]],
    *[("相对不起诉", ch, "dnp", False) for ch in ["危险驾驶", "帮信", "掩隐", "捕捞", "失火", "寻衅滋事", "诈骗", "赌场"]],
    ("法定不起诉", "盗窃", "time_limit", True),
    ("法定不起诉", "交通肇事", "death", True),
    ("法定不起诉", "危险驾驶", "trivial", True),
    ("法定不起诉", "侵占", "complaint", True),
    ("法定不起诉", "盗窃", "trivial", False),
    ("法定不起诉", "捕捞", "trivial", False),
    ("法定不起诉", "故意伤害", "time_limit", False),
    ("法定不起诉", "诈骗", "death", False),
    ("法定不起诉", "故意伤害", "self_defence", False),
    ("法定不起诉", "盗窃", "minor_age", False),
    ("法定不起诉", "寻衅滋事", "no_crime", False),
    ("法定不起诉", "失火", "accident", False),
    *[("存疑不起诉", ch, "ienp", True) for ch in ["盗窃", "故意伤害", "诈骗", "抢夺"]],
    *[("存疑不起诉", ch, "ienp", False) for ch in ["诈骗", "故意伤害", "掩隐", "寻衅滋事", "毒品", "赌场",
                                             "交通肇事"]],
    ("存疑不起诉", "帮信", "ienp_one_return", False),  # Rules 367(2): one return, no need for a second
]


def pick_date(r: random.Random, old: bool, charge: str) -> date:
    """Date of transfer for review (the signature date follows from the procedure)."""
    if old:
        lo = date(2016, 1, 1) if charge == "帮信" else date(2013, 12, 1)
        hi = date(2018, 4, 30)
    else:
        lo, hi = date(2018, 11, 5), date(2025, 8, 31)
    return lo + timedelta(days=r.randrange((hi - lo).days))


def snp_story(c: Case, birth: date) -> tuple[str, str, str]:
    """(facts, circumstance sentence, reasoning core) for a statutory non-prosecution ground."""
    r, n, v, k = c.rng, c.name, c.victim, c.county
    ground = c.variant
    item16 = {"trivial": 1, "time_limit": 2, "complaint": 4, "death": 5}
    sixteen = "第十五条" if c.old else "第十六条"
    if ground in item16:
        cpl16 = c.cite("cpl", f"{sixteen}第（{cn(item16[ground])}）项")
    if ground == "time_limit":
        c.crime = date(r.choice([1996, 1997, 1999, 2001]), r.randint(1, 12), r.randint(1, 28))
        if c.charge == "盗窃":
            amt = money(r, 1500, 2800)
            facts = (f"{dzh(c.crime)}夜间，犯罪嫌疑人{n}在{k}某村被害人{v}家猪圈内，窃取生猪两头。经价格认定，被盗生猪价值人民币"
                     f"{amt}元。被害人{v}当时未报案。{c.t.year - 1}年，{v}在与他人闲谈时得知系{n}所为，遂向公安机关报案。")
            stat = "盗窃数额较大，法定最高刑为三年有期徒刑"
        else:
            facts = (f"{dzh(c.crime)}，犯罪嫌疑人{n}在{k}某村因琐事与被害人{v}发生争执，用锄头柄击打{v}左小腿，致其胫骨骨折。"
                     f"经鉴定，{v}的损伤程度为轻伤一级。案发后{v}未报案，双方亦未处理。{c.t.year - 1}年，"
                     f"{v}因宅基地纠纷再次与{n}发生矛盾，遂就上述事实向公安机关报案。")
            stat = "致人轻伤，法定最高刑为三年有期徒刑"
        circ = f"经查，案发后至报案前，公安机关未对本案立案侦查，被害人亦未在追诉期限内提出控告，犯罪嫌疑人{n}未逃避侦查。"
        ch = CHARGES[c.charge]
        core = (f"犯罪嫌疑人{n}的行为涉嫌{CL_NAME}{c.cite('cl', ch.article)}规定的{ch.crime}，{stat}，根据{CL_NAME}{c.cite('cl', '第八十七条第（一）项')}的规定，经过五年不再追诉。本案自犯罪之日起至立案时已超过"
                f"五年，已过追诉时效期限，属于{CPL_NAME}{cpl16}规定的情形")
    elif ground == "death":
        if c.charge == "交通肇事":
            facts = (f"{dzh(c.crime)}{hour(r)}，犯罪嫌疑人{n}驾驶小型普通客车沿{k}境内某省道行驶时，因未与前车保持安全距离，"
                     f"与被害人{v}驾驶的农用三轮车发生追尾碰撞，致{v}受伤经抢救无效死亡。经{c.police}交通管理大队认定，"
                     f"{n}负事故的全部责任。")
        else:
            facts = (f"{dzh(c.crime)}至{dzh(c.crime + timedelta(days=30))}，犯罪嫌疑人{n}以帮助被害人{v}办理低息贷款需交纳"
                     f"保证金为由，先后骗取{v}人民币共计{money(r, 20000, 60000, 100)}元。")
        c.not_before = c.t + timedelta(days=r.randint(10, 25))
        circ = (f"本案审查起诉期间，犯罪嫌疑人{n}于{dzh(c.not_before)}因病在{k}人民医院"
                f"经抢救无效死亡，有医院出具的死亡医学证明书及户籍注销证明在卷。")
        core = f"鉴于犯罪嫌疑人{n}已死亡，属于{CPL_NAME}{cpl16}规定的情形"
    elif ground == "trivial":
        if c.charge == "危险驾驶":
            bac = r.randint(81, 96)
            facts = (f"{dzh(c.crime)}{hour(r)}，犯罪嫌疑人{n}饮酒后在家中休息，因其停放在小区楼下通道的小型轿车阻挡其他车辆通行，"
                     f"应物业人员要求，{n}驾驶该车在小区内挪动约{r.randint(5, 15)}米，停入旁边车位时被巡逻民警查获。"
                     f"经鉴定，{n}血液中乙醇含量为{bac}mg/100ml。")
        elif c.charge == "盗窃":
            facts = (f"{dzh(c.crime)}，犯罪嫌疑人{n}趁其叔父被害人{v}外出之机，从{v}家中拿走现金人民币"
                     f"{money(r, 1100, 1800, 100)}元，用于购买手机。{v}发现后报警。")
        else:  # 捕捞
            facts = (f"{dzh(c.crime)}{hour(r)}，犯罪嫌疑人{n}在禁渔期内于{k}境内某河段使用地笼网两条捕捞，"
                     f"被渔政执法人员当场查获，渔获物为小杂鱼{round(r.uniform(1.2, 3.5), 1)}公斤。")
        circ = {"危险驾驶": f"犯罪嫌疑人{n}挪车系在封闭小区内短距离移动，未造成任何后果，到案后如实供述，认罪悔罪。",
                "盗窃": f"案发后，犯罪嫌疑人{n}的家人已将全部钱款退还{v}，{v}表示不再追究。",
                "捕捞": f"犯罪嫌疑人{n}系初次捕捞，所获渔获物已放生，其到案后如实供述。"}[c.charge]
        ch = CHARGES[c.charge]
        core = (f"犯罪嫌疑人{n}的上述行为虽涉嫌{CL_NAME}{c.cite('cl', ch.article)}规定的{ch.crime}，"
                f"但情节显著轻微、危害不大，根据{CL_NAME}{c.cite('cl', '第十三条')}的规定，"
                f"不认为是犯罪，属于{CPL_NAME}{cpl16}规定的情形")
    elif ground == "complaint":
        amt = money(r, 30000, 90000, 1000)
        facts = (f"{dzh(c.crime)}，被害人{v}将其所有的一批木材（价值人民币{amt}元）交由犯罪嫌疑人{n}代为保管，"
                 f"后{v}多次要求返还，{n}以木材已被其出售抵偿{v}所欠货款为由拒不退还。")
        circ = (f"本案系{c.police}立案侦查后移送审查起诉。被害人{v}未向人民法院提起自诉，"
                f"并于{dzh(c.t + timedelta(days=r.randint(5, 15)))}向本院表示其与{n}之间的纠纷将通过民事途径解决。")
        core = (f"犯罪嫌疑人{n}的行为涉嫌{CL_NAME}{c.cite('cl', '第二百七十条第一款')}规定的侵占罪，根据该条"
                f"{c.cite('cl', '第二百七十条第三款')}的规定，该罪告诉的才处理，属于{CPL_NAME}{cpl16}规定的情形")
    elif ground == "self_defence":
        facts = (f"{dzh(c.crime)}{hour(r)}，被害人{v}酒后持砍刀闯入犯罪嫌疑人{n}经营的{k}某小卖部，以{n}拖欠其工钱为由"
                 f"持刀向{n}砍来，{n}躲闪后抄起店内的木凳击打{v}持刀的右臂，致砍刀落地，{v}右侧尺骨骨折。"
                 f"经鉴定，{v}的损伤程度为轻伤一级。")
        circ = f"案发后，犯罪嫌疑人{n}立即报警并在现场等候处理。现场监控视频完整记录了{v}持刀砍向{n}的过程。"
        core = (f"犯罪嫌疑人{n}为使本人的人身权利免受正在进行的不法侵害，而采取制止不法侵害的行为，对不法侵害人造成损害，"
                f"未明显超过必要限度，属于{CL_NAME}{c.cite('cl', '第二十条第一款')}规定的正当防卫，不负刑事责任，"
                f"犯罪嫌疑人{n}没有犯罪事实")
    elif ground == "minor_age":
        c.crime = date(birth.year + 15, min(birth.month + 3, 12), r.randint(1, 28))
        facts = (f"{dzh(c.crime)}{hour(r)}，犯罪嫌疑人{n}伙同他人在{k}某小区内，撬开被害人{v}停放的小型轿车车窗，"
                 f"窃取车内的现金人民币{money(r, 2000, 5000, 100)}元及香烟两条。")
        circ = f"经查，犯罪嫌疑人{n}作案时已满十五周岁不满十六周岁，有户籍证明及出生医学证明在卷。"
        core = (f"犯罪嫌疑人{n}实施上述行为时已满十四周岁不满十六周岁，盗窃不属于{CL_NAME}{c.cite('cl', '第十七条第二款')}"
                f"规定应当负刑事责任的犯罪，依法不负刑事责任，犯罪嫌疑人{n}没有犯罪事实")
    elif ground == "no_crime":
        facts = (f"{dzh(c.crime)}{hour(r)}，犯罪嫌疑人{n}到{k}某装修公司讨要其被拖欠的工钱，与公司负责人被害人{v}发生争执，"
                 f"双方相互推搡，{n}打碎了公司办公室的玻璃茶几一张，{v}面部被抓伤。经鉴定，{v}的损伤程度为轻微伤。")
        circ = (f"经查，{v}拖欠{n}工钱人民币{money(r, 8000, 20000, 100)}元属实，有欠条在卷；双方冲突系因讨薪引发，"
                f"{n}未有其他随意殴打他人或者毁损财物的行为，茶几价值人民币{money(r, 600, 1500, 100)}元。")
        core = (f"犯罪嫌疑人{n}的行为事出有因，系因讨要欠薪引发的纠纷，不属于寻衅滋事，造成的后果亦未达到"
                f"{CL_NAME}{c.cite('cl', '第二百九十三条')}规定的追诉标准，不构成犯罪，犯罪嫌疑人{n}没有犯罪事实")
    elif ground == "accident":
        facts = (f"{dzh(c.crime)}{hour(r)}，犯罪嫌疑人{n}家位于{k}某村的杂物间起火，火势蔓延至相邻的林地，"
                 f"过火有林地面积{round(r.uniform(20, 60), 1)}亩。公安机关认定系{n}在杂物间使用电取暖器后未断电所致。")
        circ = (f"经补充调查，消防救援机构重新出具的火灾事故认定书认定，起火原因为杂物间内的入户电线老化短路，"
                f"{n}当日未使用电取暖器，起火时其在外地务工。")
        core = (f"本案火灾系由不能预见的原因引起，根据{CL_NAME}{c.cite('cl', '第十六条')}的规定，不是犯罪，"
                f"犯罪嫌疑人{n}没有犯罪事实")
    else:
        raise ValueError(ground)
    return facts, circ, core


def build(c: Case, seq: int) -> dict:
    r = c.rng
    prov_list = list(PROVINCES)
    c.province = prov_list[seq % len(prov_list)]
    c.county = r.choice(PROVINCES[c.province][0])
    sur = r.sample(SURNAMES, 2)
    c.name = sur[0] + r.choice(["某", "某某", "某", "某某"])
    c.victim = sur[1] + r.choice(["某", "某某"])
    c.gender = "女" if r.random() < 0.15 else "男"
    c.t = pick_date(r, c.old, c.charge)
    dec = c.decision
    simple = c.charge == "危险驾驶" or c.variant == "death"
    if c.variant == "ienp_one_return":
        returns, extend = 1, True
    elif dec == "存疑不起诉" or c.variant == "p_two_returns":
        returns, extend = 2, True
    elif dec == "起诉":
        returns = 0 if simple or r.random() > 0.15 else 1
        extend = not simple and r.random() < 0.15
    else:
        returns = 0 if simple or r.random() > 0.3 else 1
        extend = not simple and r.random() < 0.4
    c.crime = c.t - timedelta(days=r.randint(35, 110))
    birth = date(c.crime.year - r.randint(19, 58), r.randint(1, 12), 1)
    if c.variant == "time_limit":
        birth = date(r.randint(1958, 1974), r.randint(1, 12), 1)
    if c.variant == "minor_age":
        birth = date(c.t.year - 16, r.randint(1, 8), 1)

    # Coercive measures and prior record.
    if dec == "起诉":
        kind = r.choice(["arrest", "arrest", "bail", "bail_direct"]) if c.charge != "危险驾驶" else "bail_direct"
    elif dec == "存疑不起诉":
        kind = r.choice(["arrest", "bail", "rsl"])
    else:
        kind = r.choice(["bail", "bail_direct", "bail_direct"])
    prior_p = r.random()
    recidivist = dec == "起诉" and c.charge in ("盗窃", "抢夺", "寻衅滋事") and prior_p < 0.5
    if recidivist:
        pd = c.crime - timedelta(days=r.randint(400, 1400))
        prior = (f"{ym(pd)}因犯{CHARGES[c.charge].crime}被{c.county}人民法院判处有期徒刑{r.choice(['八个月', '一年', '一年六个月'])}，"
                 f"{ym(c.crime - timedelta(days=r.randint(60, 300)))}刑满释放。")
    elif dec == "起诉" and prior_p < 0.7:
        prior = f"{ym(c.crime - timedelta(days=r.randint(300, 1500)))}因赌博被{c.police}行政拘留五日。"
    else:
        prior = r.choice(["", "无前科。", "无违法犯罪记录。"])

    narrative_facts: str
    after = ""
    core = ""
    if dec == "法定不起诉":
        narrative_facts, after, core = snp_story(c, birth)
        if c.variant == "time_limit":
            kind = "late"
    else:
        narrative_facts, after = story(c, {"起诉": "p", "相对不起诉": "dnp", "存疑不起诉": "ienp"}[dec])
    c.after = after
    if c.caught and c.caught + timedelta(days=35) > c.t:
        c.t = c.caught + timedelta(days=r.randint(35, 60))
    if c.variant == "minor_age":
        kind = "bail_direct"
    pinfo = person_info(c, measures(c, kind), birth, prior)

    plea = dec in ("起诉", "相对不起诉") and not c.old and r.random() < 0.85
    if c.charge in ("帮信", "捕捞") and dec == "相对不起诉":
        plea = True
    victimless = c.charge in ("危险驾驶", "毒品", "赌场", "捕捞")
    proc, end = procedure(c, returns=returns, extend=extend, plea=plea,
                     hearing=(dec == "相对不起诉" and not c.old and r.random() < 0.4),
                     victim=not victimless)
    c.d = end + timedelta(days=r.randint(3, 20))
    if c.not_before and c.d <= c.not_before:
        c.d = c.not_before + timedelta(days=r.randint(5, 15))

    # Facts (model input).
    police = c.police
    if dec == "存疑不起诉":
        fact = (f"{police}移送审查起诉认定：{narrative_facts}"
                f"{evidence(c, lead=f'{police}认为，认定上述事实的证据有：')}{after}")
    else:
        lead = "经依法审查查明：" if dec == "起诉" else "经本院依法审查查明："
        extra_ev: tuple[str, ...] = ()
        if c.variant == "death":
            extra_ev = ("死亡医学证明书、户籍注销证明",)
        elif c.variant == "minor_age":
            extra_ev = ("户籍证明、出生医学证明",)
        elif c.variant == "accident":
            extra_ev = ("重新出具的火灾事故认定书", "务工单位考勤记录")
        elif c.variant == "self_defence":
            extra_ev = ("现场监控视频",)
        fact = f"{lead}{narrative_facts}{after}{evidence(c, extra_ev)}"
        if dec == "起诉" and r.random() < 0.5:
            fact += "上述证据收集程序合法，内容客观真实，足以认定指控事实。"

    reasoning = render_reasoning(c, recidivist=recidivist, plea=plea, core=core)
    num = r.randint(1, 480)
    br = ("〔", "〕") if r.random() < 0.6 else ("[", "]")
    kind_code = {"起诉": r.choice(["刑诉", "一部刑诉", "刑诉"]),
                 "相对不起诉": "刑不诉", "法定不起诉": "刑不诉", "存疑不起诉": "刑不诉"}[dec]
    if dec != "起诉" and r.random() < 0.3:
        kind_code = "公诉刑不诉" if c.old else "一部刑不诉"
    cid = f"某检{kind_code}{br[0]}{c.d.year}{br[1]}{num}号"
    url = "https://www.example.org/ajxxgk/{}/{}.html".format(
        c.d.year, hashlib.sha256(f"{cid}{seq}".encode()).hexdigest()[:16])
    return {
        "id": cid,
        "meta": {"date": c.d.isoformat(), "province": c.province},
        "person_info": pinfo,
        "procedure": proc,
        "fact": fact,
        "relevant_articles": canonical_order(c.arts),
        "decision": dec,
        "raw_reasoning_and_decision": reasoning,
        "source_url": url,
    }


def render_reasoning(c: Case, *, recidivist: bool, plea: bool, core: str) -> str:
    r, n, dec = c.rng, c.name, c.decision
    ch = CHARGES[c.charge]
    court = f"{c.county}人民法院"
    if dec == "起诉":
        who = f"被告人{n}"
        txt = (f"本院认为，{who}{offence_phrase(c)}，其行为触犯了{CL_NAME}{c.cite('cl', ch.article)}，"
               f"犯罪事实清楚，证据确实、充分，应当以{ch.crime}追究其刑事责任。")
        if recidivist:
            txt += (f"{who}曾因故意犯罪被判处有期徒刑，刑罚执行完毕以后五年以内再犯应当判处有期徒刑以上刑罚之罪，"
                    f"系累犯，根据{CL_NAME}{c.cite('cl', '第六十五条第一款')}的规定，应当从重处罚。")
        if c.charge != "危险驾驶" or r.random() < 0.5:
            txt += f"{who}到案后如实供述自己的罪行，根据{CL_NAME}{c.cite('cl', '第六十七条第三款')}的规定，可以从轻处罚。"
        if c.charge in ("盗窃", "诈骗", "抢夺", "赌场", "帮信") and r.random() < 0.5:
            txt += f"对{who}的违法所得，应当根据{CL_NAME}{c.cite('cl', '第六十四条')}的规定予以追缴。"
        if plea:
            txt += (f"{who}自愿如实供述自己的罪行，承认指控的犯罪事实，愿意接受处罚，根据{CPL_NAME}"
                    f"{c.cite('cpl', '第十五条')}的规定，可以从宽处理。")
        txt += (f"根据{CPL_NAME}{c.cpl('第一百七十二条', '第一百七十六条')}的规定，提起公诉，请依法判处。"
                f"此致{court}。")
        return txt
    who = f"被不起诉人{n}"
    if dec == "相对不起诉":
        txt = (f"本院认为，{who}实施了{CL_NAME}{c.cite('cl', ch.article)}规定的行为，但犯罪情节轻微，")
        txt += "系初犯，"
        if "投案" in c.after or "主动到案" in c.after or "等候处理" in c.after:
            txt += (f"具有自首情节，根据{CL_NAME}{c.cite('cl', '第六十七条第一款')}的规定，可以从轻或者减轻处罚；")
        else:
            txt += f"到案后如实供述自己的罪行，具有{CL_NAME}{c.cite('cl', '第六十七条第三款')}规定的坦白情节，"
        if "谅解" in c.after:
            txt += "积极赔偿损失并取得谅解，"
        elif "退" in c.after or "追回" in c.after:
            txt += "退缴了违法所得，"
        elif "增殖放流" in c.after:
            txt += "积极修复生态环境，"
        if plea:
            txt += f"自愿认罪认罚，根据{CPL_NAME}{c.cite('cpl', '第十五条')}的规定，可以依法从宽处理，"
        txt += (f"根据{CL_NAME}{c.cite('cl', '第三十七条')}的规定，不需要判处刑罚。依据{CPL_NAME}"
                f"{c.cpl('第一百七十三条第二款', '第一百七十七条第二款')}")
        if c.d >= RULES2019_IN_FORCE and r.random() < 0.6:
            txt += f"、{CPR_NAME}{c.cite('cpr', '第三百七十条')}"
        txt += f"的规定，决定对{n}不起诉。"
        return txt
    if dec == "法定不起诉":
        txt = (f"本院认为，{core}。依据{CPL_NAME}{c.cpl('第一百七十三条第一款', '第一百七十七条第一款')}")
        if c.d >= RULES2019_IN_FORCE and r.random() < 0.5:
            txt += f"、{CPR_NAME}{c.cite('cpr', '第三百六十五条')}"
        txt += f"的规定，决定对{n}不起诉。"
        return txt
    # 存疑不起诉
    txt = (f"本院认为，{c.police}认定的犯罪事实不清、证据不足，{who}涉嫌{ch.crime}的主要事实仅有部分证据证实，"
           f"{r.choice(['据以定罪的证据存在疑问，无法查证属实', '证据之间的矛盾不能合理排除', '不能排除其他可能性'])}，"
           + ("经本院退回补充侦查，仍然认为证据不足，不符合起诉条件，且没有再次退回补充侦查的必要。"
              if c.variant == "ienp_one_return" else "经本院两次退回补充侦查，仍然认为证据不足，不符合起诉条件。")
           + f"依据{CPL_NAME}{c.cpl('第一百七十一条第四款', '第一百七十五条第四款')}")
    if c.variant == "ienp_one_return":
        txt += f"、{CPR_NAME}{c.cite('cpr', '第三百六十七条第二款')}"
    elif c.d >= RULES2019_IN_FORCE and r.random() < 0.6:
        txt += f"、{CPR_NAME}{c.cite('cpr', '第三百六十七条第一款')}"
    txt += f"的规定，决定对{n}不起诉。"
    return txt


def offence_phrase(c: Case) -> str:
    return {
        "盗窃": "以非法占有为目的，秘密窃取他人财物，数额较大",
        "危险驾驶": "在道路上醉酒驾驶机动车",
        "故意伤害": "故意伤害他人身体，致一人轻伤",
        "诈骗": "以非法占有为目的，虚构事实，骗取他人财物，数额较大",
        "交通肇事": "违反交通运输管理法规，因而发生重大事故，致一人死亡，且肇事后逃逸",
        "帮信": "明知他人利用信息网络实施犯罪，为其犯罪提供支付结算帮助，情节严重",
        "掩隐": "明知是犯罪所得而予以收购，情节严重" if c.rng.random() < 0.3 else "明知是犯罪所得而予以收购",
        "寻衅滋事": "随意殴打他人，情节恶劣，破坏社会秩序",
        "毒品": "明知是毒品而非法持有甲基苯丙胺十克以上不满五十克",
        "赌场": "以营利为目的，开设赌场",
        "捕捞": "违反保护水产资源法规，在禁渔期、禁渔区使用禁用工具捕捞水产品，情节严重",
        "失火": "过失引起火灾，致使公私财产遭受重大损失，危害公共安全",
        "抢夺": "以非法占有为目的，抢夺他人财物，数额较大",
    }[c.charge]


def validate(rows: list[dict]) -> None:
    ids = Counter(row["id"] for row in rows)
    dup = [i for i, k in ids.items() if k > 1]
    if dup:
        raise SystemExit(f"duplicate ids: {dup}")
    for row in rows:
        for a in row["relevant_articles"]:
            if not CANONICAL_RE.match(a):
                raise SystemExit(f"{row['id']}: non-canonical article {a!r}")
        cpl_nums = {a for a in row["relevant_articles"] if a.startswith("cpl:")}
        old = row["meta"]["date"] < CPL2018_IN_FORCE.isoformat()
        key = {("起诉", True): "cpl:第一百七十二条", ("起诉", False): "cpl:第一百七十六条",
               ("相对不起诉", True): "cpl:第一百七十三条第二款", ("相对不起诉", False): "cpl:第一百七十七条第二款",
               ("法定不起诉", True): "cpl:第一百七十三条第一款", ("法定不起诉", False): "cpl:第一百七十七条第一款",
               ("存疑不起诉", True): "cpl:第一百七十一条第四款", ("存疑不起诉", False): "cpl:第一百七十五条第四款"}
        if key[(row["decision"], old)] not in cpl_nums:
            raise SystemExit(f"{row['id']}: decision article missing: {row['relevant_articles']}")


def generate() -> list[dict]:
    """All sample records, in file order (deterministic)."""
    rng = random.Random(SEED)
    rows = []
    order = list(range(len(PLAN)))
    rng.shuffle(order)
    for seq, i in enumerate(order):
        dec, ch, variant, old = PLAN[i]
        for attempt in range(50):
            case = Case(dec, ch, variant, old, random.Random(f"{SEED}-{i}-{attempt}"))
            row = build(case, seq)
            in_era = (case.d < CPL2018_IN_FORCE) if old else (case.t >= CPL2018_IN_FORCE and case.d.year <= 2025)
            if variant == "ienp_one_return":
                in_era = in_era and case.t >= RULES2019_IN_FORCE
            if in_era:
                break
        else:
            raise SystemExit(f"could not date case {i} inside its era")
        rows.append(row)
    # Make case numbers unique deterministically (same number in the same year and bracket style).
    seen: set[str] = set()
    for row in rows:
        while row["id"] in seen:
            m = re.search(r"(\d+)号$", row["id"])
            row["id"] = row["id"][: m.start(1)] + str(int(m.group(1)) + 1) + "号"
        seen.add(row["id"])
    validate(rows)
    return rows


def render_jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def main() -> int:
    rows = generate()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(render_jsonl(rows), encoding="utf-8")
    counts = Counter(row["decision"] for row in rows)
    print(f"wrote {len(rows)} records to {OUT}: {dict(counts)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
