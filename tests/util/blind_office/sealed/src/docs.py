# -*- coding: utf-8 -*-
# Each doc: (folder, filename, Doc-kwargs, text). One paragraph per line. NOTES: gold notes per file.
# Markup: **bold** //italic// __underline__ {font=X;size=N;b;i|span} <br> manual break, <tab> tab,
# [[text|url]] hyperlink, ^^text^^ footnote; line prefixes #T title #C centred #R right #L no indent
# #N auto-numbered item #P page break before; a line starting with | is a table, rows split by ||.
DOCS = []
def D(folder, fname, text, **kw):
    DOCS.append((folder, fname, kw, text.strip('\n')))

# ---------------------------------------------------------------- sealed / doc
D('sealed', 'xs_yishen_zhapian.doc', '''
#C 福建省厦门市思明区人民法院
#T 刑事判决书
#R （2021）闽0203刑初902号
#L 公诉机关厦门市思明区人民检察院。
#L 被告人蔡某某，男，1995年8月17日出生，汉族，高中文化，无业。因涉嫌犯诈骗罪于2021年2月26日被刑事拘留，同年4月1日被逮捕。现羁押于厦门市看守所。
#L 辩护人许某，福建某某律师事务所律师。
厦门市思明区人民检察院以厦思检刑诉〔2021〕745号起诉书指控被告人蔡某某犯诈骗罪，于2021年6月8日向本院提起公诉。本院依法组成合议庭，公开开庭审理了本案。现已审理终结。
{b|经审}理查明：2020年9月至2021年1月，被告人蔡某某伙同他人，通过名为“Huobi-VIP”的虚假投资APP（下载地址[[www.hb-vip8.com|http://www.hb-vip8.com/dl/huobi_vip_v2.apk]]），以“导师带单”为名，诱骗被害人充值投资，共计骗取四名被害人人民币523,600元。各被害人被骗情况如下：
| 被害人 | 被骗时间 | 被骗金额 || 洪某 | 2020年9月 | 人民币186,000元 || 曾某某 | 2020年11月 | 人民币150,000元 || 苏某 | 2020年12月 | 人民币97,600元 || 叶某某 | 2021年1月 | 人民币90,000元 |
**本院**认为，被告人蔡某某伙同他人以非法占有为目的，利用电信网络虚构事实，骗取他人财物，数额特别巨大，其行为已构成诈骗罪。蔡某某在共同犯罪中起次要作用，系从犯，依法予以减轻处罚。依照《中华人民共和国刑法》第二百六十六条、第二十五条第一款、第二十七条、第五十二条、第五十三条、第六十四条之规定，判决如下：
#L 一、被告人蔡某某犯诈骗罪，判处有期徒刑六年，并处罚金人民币六万元。
#L 二、责令被告人蔡某某退赔各被害人经济损失共计人民币523,600元。
如不服本判决，可在接到判决书的第二日起十日内，通过本院或者直接向福建省厦门市中级人民法院提出上诉。
#R 审　判　长　　黄某
#R 审　判　员　　林某某
#R 人民陪审员　　郑某
#R 二〇二一年七月十九日
#R 书　记　员　　王某
''', header='福建省厦门市思明区人民法院', footer='- {PAGE} -', title_font='方正小标宋简体', body_font='仿宋_GB2312', body_size=16, table_font='黑体', table_size=12)

D('sealed', 'bqs_cunyi.doc', '''
#C 四川省成都市武侯区人民检察院
#T 不起诉决定书
#R 成武检刑不诉〔2020〕41号
#L 被不起诉人罗某，男，1991年3月22日出生，彝族，初中文化，务工人员，住四川省凉山彝族自治州昭觉县。<br>因涉嫌故意伤害罪于2020年5月3日被成都市公安局武侯区分局刑事拘留，同年6月9日被取保候审。
本案由成都市公安局武侯区分局侦查终结，以被不起诉人罗某涉嫌故意伤害罪，于2020年7月14日向本院移送审查起诉。本院受理后，于２０２０年７月１５日告知被不起诉人有权委托辩护人，告知被害人有权委托诉讼代理人。其间，本院两次退回侦查机关补充侦查。
经本院审查并退回补充侦查，本院仍然认为成都市公安局武侯区分局认定的犯罪事实不清、证据不足：
#N 被害人阿某所受损伤（鼻骨骨折，轻伤二级）的形成时间与案发时间不能对应；
#N 案发现场监控（编号CAM-07）在22:10—22:40期间缺失，无法还原冲突经过；
#N 在场证人证言相互矛盾，且与被害人陈述存在重大差异。
本院{i|认为}，本案不符合起诉条件。依照《中华人民共和国刑事诉讼法》第一百七十五条第四款的规定，决定对罗某不起诉。
**被害**人如不服本决定，可以自收到本决定书后七日以内向成都市人民检察院申诉，请求提起公诉；也可以不经申诉，直接向成都市武侯区人民法院提起自诉。
#L 附件：被不起诉人诉讼权利义务告知书(1份);被害人诉讼权利义务告知书(1份)。
#R 成都市武侯区人民检察院<br>二〇二〇年十二月二十八日
''', title_font='黑体', title_size=22, body_font='仿宋', body_size=16)

D('sealed', 'xs_ershen_jiaotong.doc', '''
#C 湖南省长沙市中级人民法院
#T 刑事判决书
#R （2022）湘01刑终88号
#L 原公诉机关长沙市岳麓区人民检察院。
#L 上诉人（原审被告人）彭𡒄，男，1976年10月8日出生，汉族，初中文化，货车司机，住湖南省宁乡市。因涉嫌犯交通肇事罪于2021年9月12日被取保候审，2022年1月6日被逮捕。现羁押于长沙市第一看守所。
#L 辩护人谭某，湖南某某律师事务所律师。
长沙市岳麓区人民法院审理长沙市岳麓区人民检察院指控原审被告人彭𡒄犯交通肇事罪一案，于2021年12月30日作出（2021）湘0104刑初612号刑事判决。宣判后，原审被告人彭𡒄不服，提出上诉。本院依法组成合议庭，公开开庭审理了本案。现已审理终结。
原判认定：2021年9月11日6时许，被告人彭𡒄驾驶湘A·D5678重型半挂牵引车，沿岳麓区枫林三路由东向西行驶时，因未注意观察前方路况，与横过道路的行人易某某相撞，致易某某当场死亡。经认定，彭𡒄负事故全部责任^^长沙市公安局交通警察支队岳麓区大队长公交认字〔2021〕第00317号道路交通事故认定书。^^。事故发生后，彭𡒄驾车驶离现场，后于当日10时许到公安机关投案。
原判认为，被告人彭𡒄违反交通运输管理法规，因而发生重大事故，致一人死亡，负事故全部责任，且交通运输肇事后逃逸，其行为已构成交通肇事罪，判处有期徒刑三年六个月。
上诉人彭𡒄及其辩护人提出：彭𡒄驶离现场系因惊慌，后主动投案，构成自首；其已赔偿被害人亲属人民币420,000元，原判量刑过重。
#P 经审理查明，原判认定的事实清楚，证据确实、充分。另查明，二审期间，上诉人彭𡒄的亲属与被害人亲属达成赔偿协议，赔偿人民币420,000元，被害人亲属对彭𡒄表示谅解。
{font=黑体;size=16|本}{size=16|院}认为，上诉人彭𡒄交通运输肇事后逃逸，其行为已构成交通肇事罪。彭𡒄虽系逃逸后投案，但如实供述了自己的罪行，可认定为自首。结合二审期间赔偿并取得谅解的情节，依法可以从轻处罚。依照《中华人民共和国刑法》第一百三十三条、第六十七条第一款，《中华人民共和国刑事诉讼法》第二百三十六条第一款第（二）项之规定，判决如下：
#L 一、撤销长沙市岳麓区人民法院（2021）湘0104刑初612号刑事判决；
#L 二、上诉人彭𡒄犯交通肇事罪，判处有期徒刑二年。
#L （刑期从判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，即自2022年1月6日起至2024年1月5日止。）
#L 本判决为终审判决。
#R 审判长　易某
#R 审判员　龙某某
#R 审判员　贺某
#R 二〇二二年四月二十日
#R 书记员　邹某
''', title_font='宋体', title_size=22, body_font='宋体', body_size=14)

D('sealed', 'qisushu_kaishe.doc', '''
#C 广西壮族自治区南宁市青秀区人民检察院
#T 起诉书
#R 青检刑诉〔2022〕516号
#L 被告人韦某某，男，1988年7月7日出生，公民身份号码45010319880707××××，壮族，高中文化，无业，住南宁市青秀区。<br>2022年3月15日因涉嫌开设赌场罪被南宁市公安局青秀分局刑事拘留，同年4月20日经本院批准逮捕，次日由南宁市公安局青秀分局执行逮捕。
#L 被告人覃某，女，1993年2月28日出生，壮族，大专文化，无业，住南宁市西乡塘区。2022年3月15日因涉嫌开设赌场罪被刑事拘留，同年4月20日被取保候审。
本案由南宁市公安局青秀分局侦查终结，以被告人韦某某、覃某涉嫌开设赌场罪，于2022年6月2日向本院移送审查起诉。本院受理后，于次日已告知被告人有权委托辩护人，依法讯问了被告人，听取了辩护人的意见，审查了全部案件材料。
经依法审查查明：2021年10月至2022年3月，被告人韦某某租用境外服务器，搭建名为“GXlucky28”的网络赌博平台，招揽赌客通过微信、支付宝充值参与“PC28”“百家乐”等赌博游戏；被告人覃某负责平台客服及资金结算。经审计，该平台注册会员1,287人，累计投注流水人民币8,650,432.50元，韦某某、覃某从中非法获利人民币412,300元。
侦查机关依法扣押、冻结下列财物：
| 序号 | 财物名称 | 数量/金额 || 1 | 银行卡内冻结资金 | 人民币236,518.42元 || 2 | 现金 | 人民币38,000元 || 3 | 苹果iPhone 13 Pro手机 | 2部 || 4 | 戴尔（DELL）笔记本电脑 | 1台 || 5 | 黄金首饰 | 52.6克 |
{font=黑体;b|本院}认{i|为}，被告人韦某某、覃某以营利为目的，利用信息网络开设赌场，情节严重，其行为触犯了《中华人民共和国刑法》第三百零三条第二款，犯罪事实清楚，证据确实、充分，应当以开设赌场罪追究其刑事责任。被告人覃某在共同犯罪中起辅助作用，系从犯，根据《中华人民共和国刑法》第二十七条的规定，应当从轻、减轻处罚。根据《中华人民共和国刑事诉讼法》第一百七十六条的规定，提起公诉，请依法判处。
#L 此致
#L 南宁市青秀区人民法院
#L 检　察　官：<tab>黄某某
#L 检察官助理：<tab>蒙某
#R 二〇二二年七月十一日
#L 附：<tab>1．被告人韦某某现羁押于南宁市第一看守所；<br><tab>2．被告人覃某现住南宁市西乡塘区；<br><tab>3．案卷材料和证据4册，电子数据光盘1张。
''', title_font='华文中宋', title_size=26, body_font='仿宋_GB2312', body_size=16, table_font='宋体', table_size=12)

# ---------------------------------------------------------------- sealed / rtf
D('sealed', 'bqs_xiangdui.rtf', '''
#C 重庆市渝中区人民检察院
#T 不起诉决定书
#R 渝中检刑不诉〔2021〕19号
#L 被不起诉人{b;font=黑体|冉某}某，男，1983年4月16日出生，土家族，高中文化，个体户，住重庆市渝中区。因涉嫌故意伤害罪于2021年2月3日被重庆市公安局渝中区分局取保候审。
本案由重庆市公安局渝中区分局侦查终结，以被不起诉人冉某某涉嫌故意伤害罪，于2021年4月6日向本院移送审查起诉。
经本院依法审查查明：2021年1月28日19时许，被不起诉人冉某某在渝中区解放碑某火锅店内，因琐事与邻桌顾客谭某发生口角，继而互相推搡。其间冉某某用拳头击打谭某面部，致谭某鼻骨骨折。经鉴定，谭某的损伤程度为轻伤二级。案发后，冉某某主动投案，如实供述犯罪事实，并赔偿谭某医疗费、误工费等各项经济损失共计人民币35,000元，双方达成刑事和解。
本院**认为**，冉某某实施了《中华人民共和国刑法》第二百三十四条规定的行为，但犯罪情节轻微，具有自首情节，且已与被害人达成和解，根据《中华人民共和国刑法》第三十七条、第六十七条第一款的规定，不需要判处刑罚。依据《中华人民共和国刑事诉讼法》第一百七十七条第二款的规定，决定对冉某某不起诉。
被不起诉人如不服本决定，可以自收到本决定书后七日以内向本院申诉。
被害人如不服本决定，可以自收到本决定书后七日以内向重庆市人民检察院第五分院申诉，请求提起公诉；也可以不经申诉，直接向重庆市渝中区人民法院提起自诉。
本决定书可在[[人民检察院案件信息公开网|http://www.ajxxgk.jcy.gov.cn/html/zjxflws/]]查询。
#R 重庆市渝中区人民检察院
#R 二〇二一年五月十二日
''', header='重庆市渝中区人民检察院', footer='第{PAGE}页 共{NUMPAGES}页', title_font='方正小标宋简体', body_font='仿宋_GB2312', body_size=16)

D('sealed', 'xs_yishen_qiangjie.rtf', '''
#C 云南省昆明市五华区人民法院
#T 刑事判决书
#R （2019）云0102刑初1024号
#L 公诉机关昆明市五华区人民检察院。
#L 被告人段𨭉，男，1997年12月1日出生，白族，初中文化，无业。因涉嫌犯抢劫罪于2019年3月18日被刑事拘留，同年4月22日被逮捕。
#L 被告人杨某甲，男，1998年6月5日出生，彝族，小学文化，无业。因涉嫌犯抢劫罪于2019年3月18日被刑事拘留，同年4月22日被逮捕。
#L 指定辩护人李某某，云南某某律师事务所律师。
昆明市五华区人民检察院以五检刑诉〔2019〕876号起诉书指控被告人段𨭉、杨某甲犯抢劫罪，于2019年6月3日向本院提起公诉。本院依法组成合议庭，公开开庭审理了本案。现已审理终结。
经审理查明：2019年3月16日凌晨2时许，被告人段𨭉、杨某甲在五华区篆塘路附近，持水果刀对被害人赵某进行威胁，劫得赵某的现金人民币1,650元、OPPO Reno手机1部（价值人民币2,399元）及金项链1条（重12.5克，价值人民币4,875.50元）。
**本院**认为，被告人段𨭉、杨某甲以非法占有为目的，当场使用暴力威胁手段劫取他人财物，其行为均已构成抢劫罪。在共同犯罪中，段𨭉起主要作用，系主犯；杨某甲起次要作用，系从犯，依法减轻处罚。依照《中华人民共和国刑法》第二百六十三条、第二十五条第一款、第二十六条第一款、第二十七条之规定，判决如下：
| 被告人 | 罪名 | 主刑 | 附加刑 || 段𨭉 | 抢劫罪 | 有期徒刑四年 | 罚金人民币八千元 || 杨某甲 | 抢劫罪 | 有期徒刑二年六个月 | 罚金人民币五千元 |
#L （刑期从判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日。）
#L 责令二被告人共同退赔被害人赵某经济损失人民币8,924.{u|50}元。
如不服本判决，可在接到判决书的第二日起十日内，通过本院或者直接向云南省昆明市中级人民法院提出上诉。
#R 审判长　和某
#R 审判员　普某某
#R 人民陪审员　李某
#R 二〇一九年七月二十三日
#R 书记员　字某
''', title_font='黑体', title_size=22, body_font='宋体', body_size=14, table_font='仿宋_GB2312', table_size=12)

D('sealed', 'bqs_fading_shixiao.rtf', '''
#C 黑龙江省哈尔滨市道里区人民检察院
#T 不起诉决定书
#R 哈道检刑不诉〔2020〕8号
#L 被不起诉人孙某某，男，1962年1月19日出生，汉族，初中文化，退休工人，住哈尔滨市道里区。<br>因涉嫌故意伤害罪于2020年8月4日被哈尔滨市公安局道里分局取保候审。
本案由哈尔滨市公安局道里分局侦查终结，以被不起诉人孙某某涉嫌故意伤害罪，于2020年9月21日向本院移送审查起诉。
经本院依法审查查明：1999年6月10日晚，被不起诉人孙某某在道里区某市场内因摊位纠纷与被害人马某发生厮打，致马某左手第五掌骨骨折，经鉴定为轻伤。案发后，被害人未向公安机关报案，公安机关亦未立案侦查。2020年7月，马某向公安机关控告。
本院认为，孙某某的行为虽已触犯《中华人民共和国刑法》第二百三十四条第一款，但：
#N 该罪法定最高刑为三年有期徒刑，依照《中华人民共和国刑法》第八十七条第（一）项，追诉时效为五年；
#N 本案不存在《中华人民共和国刑法》第八十八条规定的不受追诉期限限制的情形；
#N 自犯罪之日起至2020年7月控告时，已超过追诉时效期限。
依据《中华人民共和国刑事诉讼法》第十六条第（二）项和第一百七十七条第一款的规定，决定对孙某某{b|不起}诉。
{i|被害人}如不服本决定，可以自收到本决定书后七日以内向哈尔滨市人民检察院申诉，请求提起公诉；也可以不经申诉，直接向哈尔滨市道里区人民法院提起自诉。
#L 承办检察官：<tab>刘某某<br>联系电话：<tab>0451-8476××××
#R 哈尔滨市道里区人民检察院<br>二〇二〇年十月十六日
''', title_font='方正小标宋简体', title_size=22, body_font='楷体_GB2312', body_size=16)

D('sealed', 'qisushu_zousi.rtf', '''
#C 广东省深圳市人民检察院
#T 起诉书
#R 深检刑诉〔2021〕207号
#L 被告单位深圳市某某进出口贸易有限公司（以下简称某某公司），统一社会信用代码91440300MA5F××××××，住所地深圳市福田区，法定代表人陈某某。
#L 诉讼代表人钟某，某某公司副总经理。
#L 被告人陈某某，男，1975年3月3日出生，汉族，大学本科文化，某某公司法定代表人。2021年1月12日因涉嫌走私普通货物罪被深圳海关缉私局刑事拘留，同年2月9日经本院批准逮捕。
本案由深圳海关缉私局侦查终结，以被告单位某某公司、被告人陈某某涉嫌走私普通货物罪，于2021年5月20日向本院移送审查起诉。本院受理后，依法告知了被告单位和被告人有权委托辩护人，依法讯问了被告人，审查了全部案件材料。
经依法审查查明：2019年3月至2020年10月，被告人陈某某作为某某公司法定代表人，决定采用低报价格的方式，以一般贸易方式向海关申报进口NVIDIA GeForce RTX 3080显卡等电子产品共计１２批次^^低报价格，是指在向海关申报时，故意申报低于实际成交价格的价格，以达到少缴税款的目的。^^，偷逃应缴税款共计人民币3,286,451.27元。
#P 上述事实，有报关单、购销合同、银行流水、电子邮件（往来邮箱sales@xx-trade.com）、深圳海关关税部门出具的《海关核定证明书》、证人证言及被告人供述等证据证实。
**本院**认为，被告单位某某公司违反海关法规，逃避海关监管，走私普通货物，偷逃应缴税额特别巨大；被告人陈某某作为直接负责的主管人员，其行为触犯了《中华人民共和国刑法》第一百五十三条第一款第（三）项、第二款，犯罪事实清楚，证据确实、充分，应当以走私普通货物罪追究其刑事责任。根据《中华人民共和国刑事诉讼法》第一百七十六条的规定，提起公诉，请依法判处。
#L 此致
#L 深圳市中级人民法院
#R 检察员　邝某某
#R 二〇二一年六月二十八日
#L 附：1．被告人陈某某现羁押于深圳市看守所；2．案卷材料和证据12册。
''', title_font='华文中宋', title_size=22, body_font='仿宋', body_size=16, latin_font='Calibri')

# ---------------------------------------------------------------- sealed / unreadable
D('sealed', 'jiami_panjueshu.doc', '''
#C 天津市河西区人民法院
#T 刑事判决书
#R （2020）津0103刑初215号
被告人马某，男，1988年2月1日出生，因涉嫌犯寻衅滋事罪于2019年12月3日被刑事拘留。
本院认为，被告人马某随意殴打他人，情节恶劣，其行为已构成寻衅滋事罪。
''', password='hx2020', why='Word 97-2003 .doc encrypted with an open password (FIB fEncrypted set, RC4 encryption header '
    'version 1.1 at the start of 1Table); the text cannot be recovered without the password. The reader should report it '
    'as encrypted/unreadable rather than return garbage or an empty success. (LibreOffice 7.4 cannot write Word 6/95, '
    'so no old-format file is included.)')

NOTES = {
 'xs_yishen_zhapian.doc': 'First-instance telecom-fraud judgment. Page header "福建省厦门市思明区人民法院" and footer "- N -" '
  '(PAGE field) in neither list; field instructions must not leak. Hyperlink whose display text looks like a URL '
  '("www.hb-vip8.com") while the target is a different URL (…/huobi_vip_v2.apk, in "absent"). "经审" bold + "理查明" plain, '
  '"本院" bold + "认为". Latin: Huobi-VIP, APP. A 5x3 victims table with amounts (cells in "cells", any separator). '
  'Signature lines keep internal U+3000 spaces.',
 'bqs_cunyi.doc': '存疑不起诉 decision. Manual line break in the defendant paragraph (second piece its own line); full-width '
  'digits ２０２０年７月１５日; three auto-numbered items (numbers only in list formatting: items in "contains"); mixed '
  'half-width punctuation inside Chinese text ("(1份);", "22:10—22:40", "CAM-07"). "本院" + italic "认为"; bold "被害" + "人". '
  'Signature "成都市武侯区人民检察院<br>二〇二〇年十二月二十八日" gives two lines.',
 'xs_ershen_jiaotong.doc': 'Second-instance traffic-accident judgment. Non-BMP name 彭𡒄 (U+21484) in most lines. Footnote after '
  '"负事故全部责任" (reference char \\x02 in the main text; the anchor paragraph is in "contains" as two halves, footnote text in '
  'neither list). Page break before "经审理查明…". "本" (黑体 16pt) + "院" (16pt) + "认为" (body) split into three runs. '
  'Latin plate 湘A·D5678; amounts 人民币420,000元.',
 'qisushu_kaishe.doc': 'Indictment (online gambling). Manual break in the first defendant paragraph; tabs in the signature lines '
  'and tab-after-manual-break in the 附 paragraph (those are only in "contains"). A 6x3 seized-assets table with Latin '
  '(苹果iPhone 13 Pro, 戴尔（DELL）) and amounts (人民币236,518.42元, 52.6克); cells in "cells" (any separator). "本院" bold 黑体 + '
  '"认" plain + "为" italic. Latin GXlucky28, PC28; amounts 人民币8,650,432.50元. 26pt 华文中宋 title.',
 'bqs_xiangdui.rtf': '相对不起诉 decision in RTF. Header/footer with PAGE and NUMPAGES fields (LibreOffice writes them twice: in '
  'its private {\\*\\pgdsctbl …} destination, which also contains the style name "Default Page Style", and in the section); '
  'header/footer text in neither list, field instructions and "Default Page Style" absent. Every CJK char is \\uNNNN\\\'3f '
  '(\\uc1 with "?" fallback) and full-width punctuation has an ASCII fallback (\\u65292\\\'2c for "，"), so "?" and doubled '
  'punctuation like "，," are in "absent". Hyperlink field {\\field{\\*\\fldinst HYPERLINK "…"}{\\fldrslt …}}: display text '
  'inline, URL absent. Name split "冉某" bold 黑体 + "某"; "本院" + bold "认为".',
 'xs_yishen_qiangjie.rtf': 'First-instance robbery judgment in RTF. Non-BMP name 段𨭉 (U+28B49) in body lines and in table '
  'cells; LibreOffice writes it as \\uc0 \\u55394\\uc1 \\u57161\\\'3f (high surrogate without fallback, then low '
  'surrogate with "?" fallback) - the reader must join the pair across the \\uc change. 3x4 sentence table (cells in "cells", any separator). '
  'Amount split across runs "人民币8,924." + underlined "50" + "元"; Latin OPPO Reno; 12.5克, 人民币4,875.50元.',
 'bqs_fading_shixiao.rtf': '法定不起诉 (limitation period expired) in RTF. \\line manual breaks; tabs, including "联系电话：<TAB>…" '
  'after a manual break (tab pieces only in "contains"); three auto-numbered items - LibreOffice writes {\\listtext （1）\\tab} '
  'before each item and a \\listtable whose \\leveltext has ASCII "(" ")" (LibreOffice itself re-imports them as "(1)"), so '
  'items are in "contains". Body font 楷体_GB2312. "不起" bold + "诉"; "被害人" italic + "如不服".',
 'qisushu_zousi.rtf': 'Smuggling indictment (unit defendant) in RTF. Footnote written as {\\super \\chftn{\\*\\footnote \\chftn …}} '
  '(in a \\* destination) right after "１２批次" (full-width digits); the anchor paragraph is in "contains" as two halves and the '
  'footnote text must not be spliced into it. \\pagebb page break before "上述事实…". Latin: NVIDIA GeForce RTX 3080, e-mail '
  'sales@xx-trade.com, credit code 91440300MA5F××××××, Calibri as Latin font. "本院" bold.',
}
