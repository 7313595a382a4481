"""Generate the bundled mini legal-case-retrieval corpus ``src/jiancha/data/mini_retrieval/`` (LeCaRDv2 layout).

All judgments are fictional, written from templates by the jiancha team (de-identified names such as 张某,
county names only, invented case numbers). Relevance is defined by rule, LeCaRDv2 style, per query:

- 3: same charge, same scenario and the same key circumstance (the query's ``key`` flag);
- 2: same charge and scenario, key circumstance different;
- 1: same charge, different scenario;
- 0: judged hard negatives: another charge with similar wording (抢夺 vs 盗窃, 寻衅滋事 vs 故意伤害 ...).

Every query has 27–30 judged documents (the rest of its 100-document ranking pool is unjudged, i.e.
non-relevant). Deterministic: rerun with ``.venv/bin/python scripts/make_mini_retrieval.py``.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cn2an

SEED = 20240607
OUT = Path(__file__).resolve().parents[1] / "src" / "jiancha" / "data" / "mini_retrieval"
POOL_SIZE = 100
JUDGED_PER_QUERY = (27, 30)

COUNTIES = [("浙", "长兴县"), ("浙", "德清县"), ("苏", "沭阳县"), ("苏", "丰县"), ("粤", "博罗县"), ("川", "仁寿县"),
            ("豫", "固始县"), ("鲁", "莒县"), ("湘", "桃江县"), ("鄂", "蕲春县"), ("皖", "怀远县"), ("闽", "安溪县"),
            ("赣", "都昌县"), ("桂", "平南县"), ("云", "陆良县"), ("冀", "献县"), ("黔", "湄潭县"), ("陕", "蒲城县")]
SURNAMES = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程魏苏吕丁沈")
CN_DIGITS = "零一二三四五六七八九"


def cn_small(n: int) -> str:
    if n < 10:
        return CN_DIGITS[n]
    if n < 20:
        return "十" + (CN_DIGITS[n % 10] if n % 10 else "")
    return CN_DIGITS[n // 10] + "十" + (CN_DIGITS[n % 10] if n % 10 else "")


@dataclass
class Ctx:
    r: random.Random
    n: str          # defendant
    v: str          # victim
    county: str
    year: int
    big: bool       # aggravating degree (数额巨大 / 逃逸 / 情节严重 ...), a key circumstance for some queries
    month: int = 1  # month of the offence (1-6); arrest and trial follow later in the year

    def day(self) -> str:
        return f"{self.year}年{self.month}月{self.r.randint(1, 28)}日"

    def until(self) -> str:
        """End of a period of offences that began on ``day()``."""
        return f"至同年{self.month + self.r.randint(1, 3)}月"

    def hour(self) -> str:
        return f"{self.r.choice([1, 2, 3, 9, 10, 14, 15, 19, 20, 21, 22, 23])}时许"

    def money(self, lo: int, hi: int, step: int = 100) -> int:
        return self.r.randrange(lo // step, hi // step + 1) * step

    def pick(self, *options: str) -> str:
        return self.r.choice(options)


Story = Callable[[Ctx], str]


@dataclass(frozen=True)
class Scenario:
    key: str
    story: Story
    offence: str                 # 本院认为 phrase
    big_phrase: str = ""         # what ``big`` means in the reasoning


@dataclass(frozen=True)
class Charge:
    name: str                    # official charge name with 罪
    article: int
    scenarios: tuple[Scenario, ...]
    fine: bool = True


def _theft_home(c: Ctx) -> str:
    amt = c.money(60000, 150000) if c.big else c.money(3000, 20000)
    return (f"{c.day()}{c.hour()}，被告人{c.n}{c.pick('窜至', '来到', '潜入')}{c.county}某{c.pick('小区', '村', '街道')}"
            f"被害人{c.v}家中，{c.pick('从未关的窗户爬入', '用螺丝刀撬开房门进入', '用插片打开房门锁具进入')}室内，"
            f"窃取{c.pick('卧室抽屉内的现金', '衣柜内的现金', '床头柜内的现金')}人民币{c.money(1000, 5000)}元及"
            f"{c.pick('金手镯一只', '金项链一条', '笔记本电脑一台', '名表一块')}等物品。经鉴定，被盗物品价值共计人民币{amt}元。")


def _theft_pickpocket(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}在{c.county}{c.pick('某公交车上', '某菜市场内', '某商场门口')}，"
            f"趁被害人{c.v}不备，{c.pick('用镊子从其裤袋内', '用刀片划开其背包', '从其外衣口袋内')}扒窃"
            f"{c.pick('手机一部', '钱包一个（内有现金八百元）', '手机一部及现金五百元')}，价值人民币{c.money(1500, 6000)}元。")


def _theft_ebike(c: Ctx) -> str:
    k = c.r.randint(3, 9)
    return (f"{c.day()}{c.until()}间，被告人{c.n}在{c.county}城区多个小区，采用"
            f"{c.pick('剪断车锁', '破坏电门锁', '使用万能钥匙')}的方式，先后盗窃二轮电动车{cn_small(k)}辆，"
            f"以每辆数百元的价格销赃。经鉴定，被盗电动车价值共计人民币{c.money(8000, 30000)}元。")


def _snatch(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}驾驶{c.pick('无牌摩托车', '二轮电动车')}在{c.county}某路段尾随"
            f"被害人{c.v}，趁其不备，{c.pick('抢走其挎在肩上的挎包', '夺走其手中的手机', '抢走其颈部佩戴的金项链')}，"
            f"随即驾车逃离。经鉴定，被抢物品价值人民币{c.money(2000, 9000)}元。")


def _rob_knife(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}在{c.county}某{c.pick('偏僻路段', '公园小路', '河堤')}持"
            f"{c.pick('水果刀', '匕首', '折叠刀')}拦住被害人{c.v}，以{c.pick('捅刺', '伤害')}相威胁，"
            f"劫取其现金人民币{c.money(500, 3000)}元及手机一部。")


def _rob_home(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}{c.pick('窜至', '潜入')}{c.county}某村被害人{c.v}家中，"
            f"持{c.pick('菜刀', '木棍')}威胁并捆绑{c.v}，劫取现金人民币{c.money(2000, 8000)}元及金首饰等物品，"
            f"被劫物品价值共计人民币{c.money(5000, 20000)}元。")


def _fraud_tel(c: Ctx) -> str:
    amt = c.money(520000, 1500000, 1000) if c.big else c.money(6000, 45000)
    return (f"{c.day()}，被告人{c.n}伙同他人{c.pick('冒充电商平台客服', '冒充快递理赔人员', '冒充银行工作人员')}，"
            f"以{c.pick('商品质量问题退款', '快递丢失理赔', '注销校园贷账户')}为由，通过电话和{c.pick('QQ', '微信')}"
            f"与被害人{c.v}联系，诱骗其下载屏幕共享软件并转账，骗得人民币{amt}元。")


def _fraud_loan(c: Ctx) -> str:
    return (f"{c.day()}，被告人{c.n}虚构{c.pick('承包工程急需周转', '经营店铺资金紧张', '亲属生病住院')}的事实，"
            f"以高额利息为诱饵向被害人{c.v}借款人民币{c.money(30000, 120000, 1000)}元，所得款项用于"
            f"{c.pick('网络赌博', '偿还个人债务', '挥霍')}，后更换手机号码逃匿。")


def _help_cards(c: Ctx) -> str:
    return (f"{c.day()}，被告人{c.n}明知他人利用信息网络实施犯罪，仍将其办理的{cn_small(c.r.randint(2, 6))}张"
            f"银行卡及配套的{c.pick('U盾、手机卡', '网银U盾', '手机卡')}以每套人民币{c.r.choice([600, 800, 1000, 1500])}元"
            f"的价格出售给他人。经查，上述银行卡被用于电信网络诈骗资金的支付结算，流水共计人民币"
            f"{c.money(300000, 3000000, 1000)}元，其中查实被害人{c.v}等人被骗资金人民币{c.money(20000, 150000)}元。")


def _help_accounts(c: Ctx) -> str:
    return (f"{c.day()}，被告人{c.n}明知他人利用信息网络实施犯罪，仍将其本人的{c.pick('微信', '支付宝')}账号"
            f"出租给他人使用，按日收取租金，共获利人民币{c.money(1000, 6000)}元。经查，上述账号被用于接收"
            f"诈骗资金人民币{c.money(50000, 300000)}元。")


def _launder_cash(c: Ctx) -> str:
    return (f"{c.day()}，被告人{c.n}明知是电信网络诈骗犯罪所得，仍受他人指使，使用其本人银行卡接收转入的"
            f"被害人{c.v}被骗资金人民币{c.money(50000, 200000)}元，并随即在{c.county}多个ATM机{c.pick('取现', '转账')}"
            f"后交给上线，从中获利人民币{c.money(1000, 5000)}元。")


def _launder_bikes(c: Ctx) -> str:
    amt = c.money(100000, 200000) if c.big else c.money(5000, 40000)
    return (f"{c.day()}{c.until()}间，被告人{c.n}在其经营的{c.county}某"
            f"{c.pick('二手车行', '废品收购站', '电动车维修店')}，明知他人出售的{c.pick('二轮电动车', '摩托车', '电动三轮车')}"
            f"系盗窃所得，仍以明显低于市场的价格予以收购并加价转卖。经鉴定，涉案车辆价值共计人民币{amt}元。")


def _hurt_weapon(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}因{c.pick('宅基地纠纷', '琐事', '债务纠纷', '邻里矛盾')}与被害人{c.v}"
            f"发生争吵，继而持{c.pick('木棍', '铁锹', '砖块', '锄头')}击打{c.v}{c.pick('头部', '左臂', '右腿')}，"
            f"致{c.v}{c.pick('骨折', '颅骨骨折', '尺骨骨折')}。经鉴定，{c.v}的损伤程度为轻伤{c.pick('一级', '二级')}。")


def _hurt_grave(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}酒后因家庭矛盾与被害人{c.v}发生争执，用{c.pick('菜刀', '水果刀')}"
            f"砍伤{c.v}，致{c.v}{c.pick('脾脏破裂', '肝脏破裂', '颈部大血管损伤')}。经鉴定，{c.v}的损伤程度为重伤二级。")


def _provoke_beat(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}酒后在{c.county}某{c.pick('烧烤店', 'KTV', '夜宵摊')}内，"
            f"{c.pick('无故', '因琐事')}随意殴打{c.pick('邻桌顾客', '服务员', '路人')}被害人{c.v}等人，"
            f"并持{c.pick('啤酒瓶', '板凳')}击打{c.v}头部，致{c.v}等二人轻微伤，造成恶劣社会影响。")


def _provoke_extort(c: Ctx) -> str:
    return (f"{c.day()}{c.until()}间，被告人{c.n}多次在{c.county}某农贸市场内，以"
            f"{c.pick('收取保护费', '索要管理费')}为名，强拿硬要摊主财物共计人民币{c.money(2000, 8000)}元，"
            f"并任意损毁摊主的摊位和商品。")


def _affray(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}因{c.pick('感情纠纷', '经济纠纷', '琐事')}与{c.v}一方约定在{c.county}某"
            f"{c.pick('广场', '空地', '停车场')}斗殴，双方纠集十余人持{c.pick('钢管', '木棍', '砍刀')}相互殴打，"
            f"致多人受伤，其中一人损伤程度为轻伤二级。")


def _dui(c: Ctx) -> str:
    bac = c.r.randint(150, 260) if c.big else c.r.randint(85, 140)
    crash = (f"途中与{c.pick('对向车辆', '路边护栏', '前方车辆')}发生碰撞，造成{c.pick('两车损坏', '一人轻微伤')}。"
             if c.big else "在某路口被执勤民警拦停检查。")
    return (f"{c.day()}{c.hour()}，被告人{c.n}饮酒后驾驶{c.pick('小型轿车', '小型普通客车', '二轮摩托车')}"
            f"沿{c.county}某路行驶，{crash}经鉴定，{c.n}血液中乙醇含量为{bac}mg/100ml。")


def _dui_race(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}驾驶改装的小型轿车与他人在{c.county}城区道路上追逐竞驶，"
            f"时速超过一百公里，多次闯红灯，情节恶劣。")


def _traffic_death(c: Ctx) -> str:
    flee = (f"事故发生后，被告人{c.n}驾车逃离现场，后被公安机关抓获。" if c.big else
            f"事故发生后，被告人{c.n}拨打报警电话并在现场等候处理。")
    return (f"{c.day()}{c.hour()}，被告人{c.n}驾驶{c.pick('重型货车', '小型轿车', '轻型货车')}沿{c.county}某国道行驶，"
            f"因{c.pick('超速', '未注意观察', '占道行驶')}与被害人{c.v}驾驶的{c.pick('电动自行车', '二轮摩托车')}"
            f"发生碰撞，致{c.v}经抢救无效死亡。经认定，{c.n}负事故的{c.pick('全部', '主要')}责任。{flee}")


def _traffic_injury(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}驾驶大型客车在{c.county}某县道转弯时操作不当，车辆侧翻，"
            f"致乘客三人重伤，负事故的全部责任。")


def _casino_online(c: Ctx) -> str:
    tip = c.money(60000, 200000) if c.big else c.money(8000, 25000)
    return (f"{c.day()}起，被告人{c.n}建立微信群，组织群成员以“{c.pick('红包接龙', '抢红包比大小', '牛牛')}”方式赌博，"
            f"由其担任群主并按比例抽头，群成员{c.r.randint(30, 200)}余人，赌资流水人民币{c.money(100000, 2000000, 1000)}元，"
            f"{c.n}从中抽头渔利人民币{tip}元。")


def _casino_house(c: Ctx) -> str:
    return (f"{c.day()}起，被告人{c.n}在{c.county}某村租用民房开设赌场，提供赌具，组织他人以“{c.pick('推筒子', '牌九', '斗牛')}”"
            f"方式赌博，安排人员望风、放贷，抽头渔利共计人民币{c.money(20000, 80000)}元。")


def _gamble(c: Ctx) -> str:
    return (f"{c.day()}{c.until()}间，被告人{c.n}以营利为目的，多次聚集他人在{c.county}某"
            f"{c.pick('茶楼', '出租屋', '棋牌室')}以“{c.pick('推筒子', '斗地主', '扎金花')}”方式赌博，"
            f"参赌人数累计二十余人次，{c.n}从中获利人民币{c.money(5000, 12000)}元。")


def _drug_sell(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}在{c.county}某{c.pick('宾馆门口', '网吧旁', '小区楼下')}，"
            f"以人民币{c.r.choice([200, 300, 400, 500])}元的价格向吸毒人员{c.v}贩卖甲基苯丙胺（冰毒）"
            f"{round(c.r.uniform(0.2, 1.5), 1)}克，交易完成后被公安民警当场抓获，并从其身上查获冰毒"
            f"{round(c.r.uniform(0.5, 3.0), 1)}克。")


def _drug_sell_wechat(c: Ctx) -> str:
    return (f"{c.day()}{c.until()}间，被告人{c.n}通过微信联系吸毒人员，采用"
            f"{c.pick('“放包”', '快递寄送', '约定地点交易')}的方式，先后{cn_small(c.r.randint(3, 8))}次贩卖"
            f"甲基苯丙胺片剂（俗称“麻古”）共计{cn_small(c.r.randint(10, 60))}粒。")


def _drug_hold(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，公安民警在{c.county}某宾馆房间内将被告人{c.n}抓获，当场从其随身携带的挎包内"
            f"查获甲基苯丙胺（冰毒）净重{round(c.r.uniform(10.5, 45.0), 1)}克。")


def _drug_shelter(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}在其租住的{c.county}某小区房屋内，容留{c.v}等{cn_small(c.r.randint(2, 4))}人"
            f"吸食甲基苯丙胺（冰毒），被公安民警当场查获。")


def _fish_electric(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}在禁渔期内，{c.pick('驾驶小船', '沿河岸步行')}至{c.county}境内某河段，"
            f"使用{c.pick('电瓶升压器', '电鱼器具')}电鱼，捕获{c.pick('鲫鱼、鲤鱼', '白条鱼、鲫鱼', '黄颡鱼、鲢鱼')}等"
            f"共计{round(c.r.uniform(5, 60), 1)}公斤，被渔政执法人员当场查获。")


def _fish_net(c: Ctx) -> str:
    return (f"{c.day()}，被告人{c.n}在禁渔区内放置{cn_small(c.r.randint(5, 30))}条“地笼网”等禁用渔具捕捞，"
            f"捕获渔获物{round(c.r.uniform(10, 80), 1)}公斤。")


def _hunt(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}在禁猎期内，于{c.county}某山林中使用{c.pick('铁夹', '猎套', '电网')}"
            f"等禁用工具非法狩猎，猎获{c.pick('野兔', '野鸡', '斑鸠')}等野生动物{cn_small(c.r.randint(8, 30))}只。")


def _fire(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}在{c.county}某村山坡{c.pick('焚烧秸秆', '上坟烧纸', '烧荒')}时疏于看管，"
            f"引发山林火灾，过火有林地面积{round(c.r.uniform(20, 200), 1)}亩。")


def _embezzle(c: Ctx) -> str:
    return (f"{c.day()}{c.until()}间，被告人{c.n}利用担任{c.county}某公司"
            f"{c.pick('出纳', '仓库管理员', '销售员')}的职务便利，将公司货款人民币{c.money(60000, 300000, 1000)}元"
            f"非法占为己有，用于个人消费。")


def _damage(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，被告人{c.n}因{c.pick('邻里纠纷', '债务纠纷')}对被害人{c.v}心怀不满，"
            f"用{c.pick('砖块', '铁棍')}砸坏{c.v}停放在路边的小型轿车，经鉴定，车辆损失价值人民币{c.money(6000, 30000)}元。")


def _obstruct(c: Ctx) -> str:
    return (f"{c.day()}{c.hour()}，公安民警在{c.county}某路段依法处置一起纠纷时，被告人{c.n}拒不配合，"
            f"以{c.pick('推搡', '撕扯', '拳打')}等暴力方式阻碍民警执行职务，致一名民警轻微伤。")


def _wage(c: Ctx) -> str:
    return (f"被告人{c.n}系{c.county}某建筑工程的实际施工人，{c.day()}工程完工后，以转移财产、逃匿等方法"
            f"逃避支付{cn_small(c.r.randint(12, 40))}名劳动者的劳动报酬共计人民币{c.money(150000, 600000, 1000)}元，"
            f"经人力资源和社会保障部门责令支付后仍不支付。")


def S(key: str, story: Story, offence: str, big: str = "") -> Scenario:
    return Scenario(key, story, offence, big)


CHARGES: dict[str, Charge] = {c.name: c for c in [
    Charge("盗窃罪", 264, (S("入户盗窃", _theft_home, "以非法占有为目的，入户盗窃他人财物", "数额巨大"),
                         S("扒窃", _theft_pickpocket, "以非法占有为目的，扒窃他人财物"),
                         S("盗窃电动车", _theft_ebike, "以非法占有为目的，多次秘密窃取他人财物，数额较大"))),
    Charge("抢夺罪", 267, (S("飞车抢夺", _snatch, "以非法占有为目的，乘人不备，公然抢夺他人财物，数额较大"),)),
    Charge("抢劫罪", 263, (S("持刀拦路抢劫", _rob_knife, "以非法占有为目的，使用暴力、胁迫手段劫取他人财物"),
                         S("入户抢劫", _rob_home, "以非法占有为目的，入户抢劫他人财物"))),
    Charge("诈骗罪", 266, (S("电信网络诈骗", _fraud_tel, "以非法占有为目的，利用电信网络虚构事实，骗取他人财物",
                             "数额特别巨大"),
                         S("借款诈骗", _fraud_loan, "以非法占有为目的，虚构事实，骗取他人财物，数额巨大"))),
    Charge("帮助信息网络犯罪活动罪", 287, (
        S("出售银行卡", _help_cards, "明知他人利用信息网络实施犯罪，为其犯罪提供支付结算帮助，情节严重"),
        S("出租收款账号", _help_accounts, "明知他人利用信息网络实施犯罪，为其提供支付结算帮助，情节严重"))),
    Charge("掩饰、隐瞒犯罪所得罪", 312, (
        S("收购赃车", _launder_bikes, "明知是犯罪所得而予以收购、代为销售", "情节严重"),
        S("取现转移赃款", _launder_cash, "明知是犯罪所得而予以转移"))),
    Charge("故意伤害罪", 234, (S("持械伤害致轻伤", _hurt_weapon, "故意伤害他人身体，致人轻伤"),
                           S("持刀伤害致重伤", _hurt_grave, "故意伤害他人身体，致人重伤"))),
    Charge("寻衅滋事罪", 293, (S("随意殴打他人", _provoke_beat, "随意殴打他人，情节恶劣"),
                           S("强拿硬要", _provoke_extort, "强拿硬要、任意损毁公私财物，情节严重"))),
    Charge("聚众斗殴罪", 292, (S("约架斗殴", _affray, "聚众斗殴，系首要分子"),)),
    Charge("危险驾驶罪", 133, (S("醉酒驾驶", _dui, "在道路上醉酒驾驶机动车", "发生交通事故"),
                           S("追逐竞驶", _dui_race, "在道路上驾驶机动车追逐竞驶，情节恶劣"))),
    Charge("交通肇事罪", 133, (S("肇事致人死亡", _traffic_death, "违反交通运输管理法规，发生重大事故，致一人死亡",
                             "肇事后逃逸"),
                           S("肇事致多人重伤", _traffic_injury, "违反交通运输管理法规，发生重大事故，致三人重伤"))),
    Charge("开设赌场罪", 303, (S("网络赌博群", _casino_online, "以营利为目的，利用网络开设赌场", "情节严重"),
                           S("线下开设赌场", _casino_house, "以营利为目的，开设赌场"))),
    Charge("赌博罪", 303, (S("聚众赌博", _gamble, "以营利为目的，聚众赌博"),)),
    Charge("贩卖毒品罪", 347, (S("零包贩卖冰毒", _drug_sell, "明知是毒品而贩卖"),
                           S("微信贩卖麻古", _drug_sell_wechat, "明知是毒品而多次贩卖"))),
    Charge("非法持有毒品罪", 348, (S("持有冰毒", _drug_hold, "明知是毒品而非法持有，数量较大"),)),
    Charge("容留他人吸毒罪", 354, (S("容留吸毒", _drug_shelter, "容留他人吸食毒品"),)),
    Charge("非法捕捞水产品罪", 340, (S("禁渔期电鱼", _fish_electric, "违反保护水产资源法规，在禁渔期使用禁用方法捕捞水产品，情节严重"),
                              S("禁渔区地笼网捕捞", _fish_net, "违反保护水产资源法规，在禁渔区使用禁用工具捕捞水产品，情节严重"))),
    Charge("非法狩猎罪", 341, (S("禁猎期狩猎", _hunt, "违反狩猎法规，在禁猎期使用禁用工具进行狩猎，情节严重"),)),
    Charge("失火罪", 115, (S("烧荒失火", _fire, "过失引起火灾，致使公私财产遭受重大损失"),)),
    Charge("职务侵占罪", 271, (S("侵占公司货款", _embezzle, "利用职务上的便利，将本单位财物非法占为己有，数额较大"),)),
    Charge("故意毁坏财物罪", 275, (S("砸车", _damage, "故意毁坏他人财物，数额较大"),)),
    Charge("妨害公务罪", 277, (S("暴力阻碍民警", _obstruct, "以暴力方法阻碍国家机关工作人员依法执行职务"),), fine=False),
    Charge("拒不支付劳动报酬罪", 276, (S("逃避支付工资", _wage, "以逃匿方法逃避支付劳动者的劳动报酬，数额较大"),)),
]}

#: 条之N suffix of the article text where the charge's article has one (the ``article`` list keeps the int).
SUFFIX = {("帮助信息网络犯罪活动罪", 287): "之二", ("危险驾驶罪", 133): "之一"}

#: Background sentences shared by all charges ("另查明" findings); they put other scenarios' words into
#: every judgment so that lexical matching is useful but not decisive.
BACKGROUND = [
    "另查明，被告人{n}曾因赌博被公安机关行政拘留十日。",
    "另查明，被告人{n}曾因饮酒后驾驶机动车被公安机关交通管理部门处以罚款并暂扣驾驶证。",
    "另查明，被告人{n}名下另有银行卡三张，均系其本人在{county}办理。",
    "另查明，被告人{n}有吸食毒品史，曾被责令社区戒毒。",
    "另查明，案发后公安机关依法扣押了被告人{n}的手机一部、二轮电动车一辆，现随案移送。",
    "另查明，被告人{n}与被害人{v}系同村邻居，双方此前因宅基地问题发生过纠纷。",
    "另查明，被告人{n}曾因殴打他人被公安机关行政拘留五日。",
    "另查明，被告人{n}在取保候审期间遵守相关规定，按时到案。",
    "另查明，被告人{n}案发前在{county}某物流公司从事货车驾驶工作。",
    "另查明，被告人{n}曾因盗窃被公安机关行政拘留。",
    "另查明，被告人{n}经营的小卖部内曾多次有他人聚集打牌。",
    "另查明，被害人{v}的损失已由保险公司部分理赔。",
    "另查明，被告人{n}的家属代为退缴违法所得人民币五千元。",
    "另查明，被告人{n}系在校学生，案发时已满十八周岁。",
]

# Key circumstances a query can hinge on.
FLAGS = ("surrender", "recidivist", "forgiven", "big")


@dataclass(frozen=True)
class QuerySpec:
    qid: int
    charge: str
    scenario: str
    key: str            # one of FLAGS
    value: bool         # the query's value of the key flag
    negatives: tuple[str, ...]   # charges used as judged hard negatives


QUERIES = (
    QuerySpec(5, "盗窃罪", "入户盗窃", "recidivist", True, ("抢劫罪", "掩饰、隐瞒犯罪所得罪", "抢夺罪")),
    QuerySpec(10, "诈骗罪", "电信网络诈骗", "big", True, ("帮助信息网络犯罪活动罪", "掩饰、隐瞒犯罪所得罪")),
    QuerySpec(15, "帮助信息网络犯罪活动罪", "出售银行卡", "surrender", True, ("掩饰、隐瞒犯罪所得罪", "诈骗罪")),
    QuerySpec(20, "掩饰、隐瞒犯罪所得罪", "收购赃车", "big", False, ("盗窃罪", "帮助信息网络犯罪活动罪")),
    QuerySpec(25, "故意伤害罪", "持械伤害致轻伤", "forgiven", True, ("寻衅滋事罪", "聚众斗殴罪", "故意毁坏财物罪")),
    QuerySpec(30, "寻衅滋事罪", "随意殴打他人", "recidivist", False, ("故意伤害罪", "聚众斗殴罪")),
    QuerySpec(35, "危险驾驶罪", "醉酒驾驶", "big", False, ("交通肇事罪",)),
    QuerySpec(40, "交通肇事罪", "肇事致人死亡", "big", True, ("危险驾驶罪",)),
    QuerySpec(45, "开设赌场罪", "网络赌博群", "big", True, ("赌博罪",)),
    QuerySpec(50, "贩卖毒品罪", "零包贩卖冰毒", "recidivist", True, ("非法持有毒品罪", "容留他人吸毒罪")),
    QuerySpec(55, "抢劫罪", "持刀拦路抢劫", "surrender", True, ("抢夺罪", "盗窃罪")),
    QuerySpec(60, "非法捕捞水产品罪", "禁渔期电鱼", "surrender", False, ("非法狩猎罪", "失火罪")),
)


@dataclass
class Doc:
    pid: int
    charge: str
    scenario: str
    flags: dict[str, bool]
    record: dict


def render_judgment(r: random.Random, charge: Charge, scen: Scenario, flags: dict[str, bool],
                    pid: int, *, as_query: bool = False) -> dict:
    abbr, county = r.choice(COUNTIES)
    year = r.randint(2014, 2023)
    surs = r.sample(SURNAMES, 2)
    n = surs[0] + r.choice(["某", "某某"])
    v = surs[1] + r.choice(["某", "某某"])
    c = Ctx(r, n, v, county, year, flags["big"], month=r.randint(1, 6))
    caught = c.month + r.randint(4, 6)
    story = scen.story(c)
    birth = f"{year - r.randint(19, 55)}年{r.randint(1, 12)}月{r.randint(1, 28)}日"
    prior = ""
    if flags["recidivist"]:
        prior = (f"{year - r.randint(2, 4)}年{r.randint(1, 12)}月{r.randint(1, 28)}日因犯{charge.name}被{county}人民法院"
                 f"判处有期徒刑{r.choice(['一年', '一年六个月', '二年', '十个月'])}，{year - 1}年{r.randint(1, 12)}月刑满释放。")
    party = (f"被告人{n}，{r.choice(['男', '男', '男', '女'])}，{birth}出生，汉族，{r.choice(['初中', '小学', '高中'])}文化，"
             f"{r.choice(['无业', '农民', '务工人员', '个体经营者'])}，户籍所在地{county}。{prior}"
             f"因涉嫌{charge.name}于{year}年{caught}月{r.randint(1, 28)}日被刑事拘留，"
             f"{r.choice(['同月被逮捕', '后被取保候审', '次月被逮捕'])}。")
    court = f"{county}人民法院"
    case_no = f"（{year + 1}）{abbr}{r.randint(1, 9)}{r.randint(100, 999):03d}刑初{r.randint(1, 900)}号"
    header = (f"{court}刑事判决书{case_no}公诉机关{county}人民检察院。{party}"
              f"{county}人民检察院以起诉书指控被告人{n}犯{charge.name}，向本院提起公诉。本院依法适用"
              f"{r.choice(['简易程序', '速裁程序', '普通程序'])}，公开开庭审理了本案。")
    after = []
    if flags["surrender"]:
        after.append(f"案发后，被告人{n}{r.choice(['主动到公安机关投案', '在亲属陪同下到派出所投案', '接到民警电话通知后主动到案'])}，"
                     f"如实供述了自己的罪行。")
    else:
        after.append(f"被告人{n}于{year}年{caught}月被公安民警抓获归案，到案后如实供述了上述事实。")
    if flags["forgiven"]:
        after.append(f"案发后，被告人{n}{r.choice(['赔偿了被害人全部经济损失', '退赔了被害人损失', '与被害人达成和解协议并履行完毕'])}，"
                     f"取得了被害人的谅解。")
    k = r.choice([0, 1, 1, 2, 2, 3])
    after += [t.format(n=n, v=v, county=county) for t in r.sample(BACKGROUND, k)]
    fact = f"经审理查明：{story}{''.join(after)}上述事实，被告人{n}在开庭审理过程中亦无异议，且有相关证据证实，足以认定。"
    reason = f"本院认为，被告人{n}{scen.offence}，其行为已构成{charge.name}。"
    arts = [charge.article]
    if flags["big"] and scen.big_phrase:
        reason += f"被告人{n}的犯罪行为{scen.big_phrase}，依法应在相应的量刑幅度内判处刑罚。"
    if flags["recidivist"]:
        reason += f"被告人{n}曾因故意犯罪被判处有期徒刑，刑罚执行完毕后五年内再犯应当判处有期徒刑以上刑罚之罪，系累犯，依法应当从重处罚。"
        arts.append(65)
        if charge.name == "贩卖毒品罪":
            reason += "其同时系毒品再犯，依法应当从重处罚。"
            arts.append(356)
    if flags["surrender"]:
        reason += f"被告人{n}犯罪以后自动投案，如实供述自己的罪行，系自首，依法可以从轻处罚。"
        arts.append(67)
    else:
        reason += f"被告人{n}到案后如实供述自己的罪行，依法可以从轻处罚。"
        arts.append(67)
    if flags["forgiven"]:
        reason += "被告人已赔偿被害人损失并取得谅解，可以酌情从轻处罚。"
    reason += "公诉机关指控的罪名成立，本院予以支持。"
    months = r.randint(6, 36) + (24 if flags["big"] else 0) + (6 if flags["recidivist"] else 0)
    y, m = divmod(months, 12)
    term = (f"{cn2an.an2cn(y)}年" if y else "") + (f"{cn2an.an2cn(m)}个月" if m else "")
    if charge.fine:
        arts.append(52)
    arts += [53] if charge.fine else []
    if charge.article in (264, 266, 267, 263, 303, 312, 287) and r.random() < 0.5:
        arts.append(64)
    art_text = "、".join(f"第{cn2an.an2cn(a)}条{SUFFIX.get((charge.name, a), '')}"
                         for a in sorted(set(arts), key=arts.index))
    result = (f"依照《中华人民共和国刑法》{art_text}之规定，判决如下：被告人{n}犯{charge.name}，判处有期徒刑{term}"
              + (f"，并处罚金人民币{r.choice([2000, 3000, 5000, 10000, 20000])}元。" if charge.fine else "。"))
    tail = ("如不服本判决，可在接到判决书的第二日起十日内，通过本院或者直接向上一级人民法院提出上诉。"
            f"审判员{r.choice(SURNAMES)}某{year + 1}年{r.randint(1, 12)}月{r.randint(1, 28)}日书记员{r.choice(SURNAMES)}某")
    if as_query:
        return {"id": pid, "query": header + fact, "fact": fact}
    return {"pid": pid, "qw": header + fact + reason + result + tail, "fact": fact, "reason": reason,
            "result": result, "charge": [charge.name], "article": sorted(set(arts))}


def grade(q: QuerySpec, d: Doc) -> int:
    if d.charge != q.charge:
        return 0
    if d.scenario != q.scenario:
        return 1
    return 3 if d.flags[q.key] == q.value else 2


def main(out: Path = OUT) -> int:
    rng = random.Random(SEED)
    used_pids: set[int] = set()

    def new_pid() -> int:
        while True:
            p = rng.randint(10000, 3999999)
            if p not in used_pids:
                used_pids.add(p)
                return p

    def random_flags(r: random.Random, charge: str) -> dict[str, bool]:
        return {"surrender": r.random() < 0.35, "recidivist": r.random() < 0.25,
                "forgiven": r.random() < 0.3 and charge not in ("危险驾驶罪", "开设赌场罪", "赌博罪"),
                "big": r.random() < 0.3}

    docs: list[Doc] = []

    def add(charge: str, scenario: str, flags: dict[str, bool]) -> None:
        ch = CHARGES[charge]
        scen = next(s for s in ch.scenarios if s.key == scenario)
        pid = new_pid()
        rec = render_judgment(random.Random(f"{SEED}-doc-{pid}"), ch, scen, flags, pid)
        docs.append(Doc(pid, charge, scenario, flags, rec))

    # Per query: grade 3 and grade 2 documents in its scenario.
    for q in QUERIES:
        for _ in range(rng.randint(3, 6)):
            f = random_flags(rng, q.charge)
            f[q.key] = q.value
            add(q.charge, q.scenario, f)
        for _ in range(rng.randint(4, 8)):
            f = random_flags(rng, q.charge)
            f[q.key] = not q.value
            add(q.charge, q.scenario, f)
    # Every other scenario of every charge, including hard-negative and filler charges.
    query_scen = {(q.charge, q.scenario) for q in QUERIES}
    for ch in CHARGES.values():
        for s in ch.scenarios:
            if (ch.name, s.key) in query_scen:
                continue
            for _ in range(rng.randint(4, 7)):
                add(ch.name, s.key, random_flags(rng, ch.name))

    # Queries: a judgment of the query's scenario with the key flag set, cut before the reasoning.
    queries = []
    for q in QUERIES:
        f = random_flags(rng, q.charge)
        f[q.key] = q.value
        ch = CHARGES[q.charge]
        scen = next(s for s in ch.scenarios if s.key == q.scenario)
        queries.append(render_judgment(random.Random(f"{SEED}-query-{q.qid}"), ch, scen, f, q.qid, as_query=True))

    # Judgments: every doc of grade >= 1, plus hard negatives (grade 0) up to 27-30 judged.
    qrels: list[tuple[int, int, int]] = []
    pools = []
    for q in QUERIES:
        graded = [(d, grade(q, d)) for d in docs]
        positive = [(d, g) for d, g in graded if g > 0]
        target = rng.randint(*JUDGED_PER_QUERY)
        negs = [d for d, g in graded if g == 0 and d.charge in q.negatives]
        rng.shuffle(negs)
        judged = positive + [(d, 0) for d in negs[: max(0, target - len(positive))]]
        judged_ids = {d.pid for d, _ in judged}
        if len(judged) < 27:
            extra = [d for d, g in graded if g == 0 and d.pid not in judged_ids]
            rng.shuffle(extra)
            judged += [(d, 0) for d in extra[: 27 - len(judged)]]
        order = sorted(judged, key=lambda x: (-x[1], x[0].pid))
        rng.shuffle(order)   # qrels order carries no signal
        qrels += [(q.qid, d.pid, g) for d, g in order]
        judged_ids = {d.pid for d, _ in judged}
        rest = [d.pid for d in docs if d.pid not in judged_ids]
        rng.shuffle(rest)
        pool = list(judged_ids) + rest[: POOL_SIZE - len(judged_ids)]
        rng.shuffle(pool)
        pools.append({"qid": q.qid, "rank_doc_id": pool})

    if out.exists():
        shutil.rmtree(out)
    for sub in ("query", "candidate", "label", "others"):
        (out / sub).mkdir(parents=True)
    with (out / "query" / "test_query.json").open("w", encoding="utf-8") as fh:
        for qd in queries:
            fh.write(json.dumps(qd, ensure_ascii=False) + "\n")
    for d in docs:
        (out / "candidate" / f"{d.pid}.json").write_text(json.dumps(d.record, ensure_ascii=False), encoding="utf-8")
    with (out / "label" / "qrels.trec").open("w", encoding="utf-8") as fh:
        fh.writelines(f"{q}\t0\t{p}\t{g}\n" for q, p, g in qrels)
    with (out / "label" / "qrels_gold.trec").open("w", encoding="utf-8") as fh:
        fh.writelines(f"{q}\t0\t{p}\t{g}\n" for q, p, g in qrels if g >= 2)
    with (out / "label" / "ranking_pool.json").open("w", encoding="utf-8") as fh:
        for p in pools:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    (out / "others" / "stopword.txt").write_text("\n".join(STOPWORDS) + "\n", encoding="utf-8")
    (out / "others" / "criminal charges.txt").write_text(
        "\n".join(sorted(CHARGES, key=lambda k: (CHARGES[k].article, k))) + "\n", encoding="utf-8")
    counts = {q.qid: {g: sum(1 for qq, _, gg in qrels if qq == q.qid and gg == g) for g in range(4)} for q in QUERIES}
    (out / "README.md").write_text(render_readme(len(docs), counts), encoding="utf-8")
    print(f"wrote {len(docs)} candidates, {len(queries)} queries, {len(qrels)} judgments to {out}", file=sys.stderr)
    return 0


#: A short stopword list written for this corpus (function words, punctuation, boilerplate of judgments).
STOPWORDS = [
    "的", "了", "在", "是", "和", "与", "及", "或", "等", "其", "之", "对", "将", "被", "由", "于", "以", "为", "把",
    "向", "从", "并", "后", "又", "也", "而", "该", "此", "这", "那", "上述", "所", "有", "无", "已", "经", "中",
    "一", "个", "某", "某某", "时", "日", "月", "年", "许", "人", "本院", "被告人", "公诉机关", "人民检察院",
    "人民法院", "判决书", "刑事", "上诉", "审判员", "书记员", "，", "。", "、", "；", "：", "（", "）", "“", "”",
    "《", "》", "(", ")", ",", ".", ":", ";",
]


def render_readme(n_docs: int, counts: dict[int, dict[int, int]]) -> str:
    lines = [
        "# Mini retrieval corpus (fictional, LeCaRDv2 layout)",
        "",
        "Written by the jiancha team with `scripts/make_mini_retrieval.py`; every judgment is invented from",
        "templates (de-identified names, county names only, invented case numbers). Layout as in THUIR/LeCaRDv2:",
        "",
        "- `query/test_query.json`: JSON lines `{\"id\": int, \"query\": str, \"fact\": str}`; `query` is the judgment",
        "  cut before the court's reasoning, `fact` the facts found. Ids 5, 10, ..., 60.",
        "- `candidate/<pid>.json`: `pid`, `qw` (full text), `fact`, `reason`, `result`, `charge` (list), `article`",
        "  (list of int Criminal Law articles).",
        "- `label/qrels.trec` (LeCaRDv2 calls it `relevence.trec`; the loader reads either): `qid 0 pid grade`",
        "  (tab-separated, grades 0-3; 27-30 judged per query),",
        "  `label/qrels_gold.trec`: the lines with grade >= 2, `label/ranking_pool.json`: JSON lines",
        f"  `{{\"qid\", \"rank_doc_id\": [{POOL_SIZE} pids]}}` (order shuffled; unjudged documents are non-relevant).",
        "- `others/stopword.txt` (a short list written for this corpus), `others/criminal charges.txt`",
        "  (the charges that occur here).",
        "",
        "Grades: 3 = same charge, same scenario and the query's key circumstance (recidivism, surrender,",
        "amount/severity ...); 2 = same charge and scenario, key circumstance different; 1 = same charge, other",
        "scenario; 0 = judged hard negative (another charge with similar wording).",
        "",
        f"{n_docs} candidate judgments, {len(counts)} queries. Judged documents per query and grade:",
        "",
        "| qid | grade 3 | grade 2 | grade 1 | grade 0 |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {q} | {c[3]} | {c[2]} | {c[1]} | {c[0]} |" for q, c in counts.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
