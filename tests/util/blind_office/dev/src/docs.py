# -*- coding: utf-8 -*-
# Each doc: (folder, filename, Doc-kwargs, text). One paragraph per line. NOTES: gold notes per file.
# Markup: **bold** //italic// __underline__ {font=X;size=N;b;i|span} <br> manual break, <tab> tab,
# [[text|url]] hyperlink, ^^text^^ footnote; line prefixes #T title #C centred #R right #L no indent
# #N auto-numbered item #P page break before; a line starting with | is a table, rows split by ||.
DOCS = []
def D(folder, fname, text, **kw):
    DOCS.append((folder, fname, kw, text.strip('\n')))

# ---------------------------------------------------------------- dev / doc
D('dev', 'xs_yishen_dupin.doc', '''
#C 北京市朝阳区人民法院
#T 刑 事 判 决 书
#R （2018）京0105刑初123号
#L 公诉机关北京市朝阳区人民检察院。
#L 被告人王某某，男，1990年6月12日出生于河南省郑州市，汉族，初中文化，无业。因涉嫌犯贩卖毒品罪于2018年1月9日被刑事拘留，同年2月14日被逮捕。现羁押于北京市朝阳区看守所。
#L 被告人陈某某，男，1994年9月2日出生于北京市，汉族，高中文化，无业。因涉嫌犯贩卖毒品罪于2018年1月9日被刑事拘留，同年2月14日被逮捕。现羁押于北京市朝阳区看守所。
#L 辩护人刘某，北京市某某律师事务所律师。
北京市朝阳区人民检察院以京朝检公诉刑诉〔2018〕1024号起诉书指控被告人王某某、陈某某犯贩卖毒品罪，于2018年3月20日向本院提起公诉。本院依法组成合议庭，公开开庭审理了本案。现已审理终结。
**经审理**查明：2018年1月8日21时许，被告人王某某通过微信（账号：wxid_k8m2p9）与吸毒人员李某联系，约定以人民币1,200元的价格出售甲基苯丙胺（冰毒），并指使被告人陈某某送货。次日凌晨，陈某某在本市朝阳区某小区附近交付毒品时被民警当场抓获，民警从王某某住处起获白色晶体2包，净重共计{u|3.5}克，另起获现金人民币12,345.60元、iPhone 8手机1部。经鉴定，上述白色晶体中均检出甲基苯丙胺成分。
上述事实，有扣押笔录、称量笔录、《检验鉴定报告》、证人李某的证言、微信聊天记录截图及二被告人的供述等证据证实，足以认定。
**本院**认为，被告人王某某、陈某某明知是毒品而贩卖，其行为均已构成贩卖毒品罪，依法应予惩处。鉴于二被告人到案后均如实供述自己的罪行，本院对其依法从轻处罚。依照《中华人民共和国刑法》第三百四十七条第一款、第四款，第二十五条第一款，第六十七条第三款，第六十四条之规定，判决如下：
| 被告人 | 罪名 | 主刑 | 附加刑 || 王某某 | 贩卖毒品罪 | 有期徒刑一年三个月 | 罚金人民币五千元 || 陈某某 | 贩卖毒品罪 | 有期徒刑八个月 | 罚金人民币三千元 |
#L 一、被告人王某某犯贩卖毒品罪，判处有期徒刑一年三个月，并处罚金人民币五千元。
#L 二、被告人陈某某犯贩卖毒品罪，判处有期徒刑八个月，并处罚金人民币三千元。
#L 三、在案扣押的甲基苯丙胺3.5克予以没收；扣押的现金人民币12,345.60元中的违法所得人民币1,200元予以没收，其余部分发还被告人王某某。
如不服本判决，可在接到判决书的第二日起十日内，通过本院或者直接向北京市第三中级人民法院提出上诉。书面上诉的，应当提交上诉状正本一份，副本二份。
#R 审　判　长　　孙某某
#R 人民陪审员　　周某某
#R 人民陪审员　　吴某某
#R 二〇一八年五月七日
#R 书　记　员　　郑某某
''', header='北京市朝阳区人民法院刑事判决书', footer='第 {PAGE} 页 共 {NUMPAGES} 页',
  title_font='方正小标宋简体', body_font='仿宋_GB2312', body_size=16, table_font='宋体', table_size=12)

D('dev', 'bqs_xiangdui.doc', '''
#C 北京市海淀区人民检察院
#T 不起诉决定书
#R 京海检刑不诉〔2019〕56号
#L 被不起诉人张某，女，1996年11月3日出生，居民身份证号码11010819961103××××，汉族，大学本科文化，某科技公司职员，住北京市海淀区某街道某号。<br>因涉嫌盗窃罪于２０１９年３月５日被北京市公安局海淀分局取保候审。
本案由北京市公安局海淀分局侦查终结，以被不起诉人张某涉嫌盗窃罪，于2019年4月2日向本院移送审查起诉。
{font=楷体_GB2312|经本院依法审查}查明：2019年3月4日14时许，被不起诉人张某在本区中关村某商场内，趁被害人刘某不备，窃取其放在柜台上的钱包一个（内有现金人民币860元、银行卡2张）。经鉴定，涉案钱包价值人民币320元。案发后，张某主动退赔被害人全部经济损失，并取得被害人谅解。
认定上述事实的证据如下：1．被害人刘某的陈述；2．证人王某的证言；3．监控录像；4．价格认定结论书；5．被不起诉人张某的供述和辩解。
//本院//认为，张某实施了《中华人民共和国刑法》第二百六十四条规定的行为，但犯罪情节轻微，具有坦白、退赔等情节，取得了被害人的谅解，根据《中华人民共和国刑法》第三十七条的规定，不需要判处刑罚。依据《中华人民共和国刑事诉讼法》第一百七十七条第二款的规定，决定对张某不起诉。
被不**起诉**人如不服本决定，可以自收到本决定书后七日以内向本院申诉。
被害人如不服本决定，可以自收到本决定书后七日以内向北京市人民检察院第一分院申诉，请求提起公诉；也可以不经申诉，直接向北京市海淀区人民法院提起自诉。
本决定书的公开版本可通过[[12309中国检察网|https://www.12309.gov.cn/12309/gj/bj/index.shtml]]查询。
#R 北京市海淀区人民检察院<br>二〇一九年五月二十日
#P 附注：被不起诉人张某的取保候审措施自本决定书送达之日起解除；扣押的钱包及现金已发还被害人刘某。
''', title_font='黑体', title_size=20, body_font='仿宋_GB2312', body_size=15)

D('dev', 'xs_ershen_shanghai.doc', '''
#C 河南省郑州市中级人民法院
#T 刑事判决书
#R （2019）豫01刑终456号
#L 原公诉机关郑州市金水区人民检察院。
#L 上诉人（原审被告人）吴𠮷，男，1985年2月18日出生，汉族，高中文化，个体经营者，住郑州市金水区。因涉嫌犯故意伤害罪于2018年10月2日被刑事拘留，同年11月8日被逮捕。现羁押于郑州市看守所。
#L 被害人刘䶮，男，1979年7月30日出生，住郑州市二七区。
郑州市金水区人民法院审理郑州市金水区人民检察院指控原审被告人吴𠮷犯故意伤害罪一案，于2019年5月16日作出（2019）豫0105刑初78号刑事判决。原审被告人吴𠮷不服，提出上诉。本院依法组成合议庭，经过阅卷，讯问上诉人，听取辩护人的意见，认为事实清楚，决定不开庭审理。现已审理终结。
原判认定：2018年10月1日22时许，上诉人吴𠮷与被害人刘䶮因停车纠纷在金水区某饭店门前发生争执，吴𠮷持木棍击打刘䶮头部，致其颅骨骨折。经鉴定，刘䶮的损伤程度为轻伤一级^^郑州市公安局金水分局物证鉴定室郑金公（司）鉴（法临）字〔2018〕第1136号鉴定意见书。^^。原判据此以故意伤害罪判处吴𠮷有期徒刑二年。
上诉人吴𠮷提出如下上诉理由：
#N 被害人刘䶮对本案的发生存在明显过错；
#N 其已赔偿被害人经济损失人民币46,800元并取得谅解；
#N 原判量刑过重，请求二审改判适用缓刑。
经审理查明的事实与原判相同。另查明，二审期间，上诉人吴𠮷的亲属代为赔偿被害人刘䶮经济损失人民币46,800元，刘䶮出具了谅解书。
#P **本院**认为，上诉人吴𠮷故意伤害他人身体，致一人轻伤，其行为已构成故意伤害罪。鉴于吴𠮷在二审期间赔偿了被害人的经济损失并取得谅解，可酌情从轻处罚，其相关上诉理由本院予以采纳。依照《中华人民共和国刑事诉讼法》第二百三十六条第一款第（二）项之规定，判决如下：
#L 一、撤销郑州市金水区人民法院（2019）豫0105刑初78号刑事判决；
#L 二、上诉人吴𠮷犯故意伤害罪，判处有期徒刑一年六个月，缓刑二年。
#L 本判决为终审判决。
#R 审判长　钱某
#R 审判员　孙某
#R 审判员　李某
#R 二〇一九年八月十二日
#R 书记员　周某
''', title_font='宋体', title_size=22, body_font='宋体', body_size=14)

D('dev', 'qisushu_zhapian.doc', '''
#C 上海市浦东新区人民检察院
#T 起 诉 书
#R 沪浦检刑诉〔2020〕2087号
#L 被告人黄𪚥龙，男，1992年4月5日出生，公民身份号码31011519920405××××，汉族，大专文化，无业，户籍所在地上海市浦东新区。<br>2020年6月18日因涉嫌诈骗罪被上海市公安局浦东分局刑事拘留，同年7月22日经本院批准，次日由上海市公安局浦东分局执行逮捕。
本案由上海市公安局浦东分局侦查终结，以被告人黄𪚥龙涉嫌诈骗罪，于2020年9月1日向本院移送审查起诉。本院受理后，于同日已告知被告人有权委托辩护人，依法讯问了被告人，审查了全部案件材料。
经依法审查查明：2019年11月至2020年5月间，被告人黄𪚥龙通过Telegram群组“BTC-Pro投资交流”冒充数字货币交易平台客服，谎称可代为投资USDT获取高额收益，诱骗被害人向其指定的银行账户及钱包地址转账，共计骗取5名被害人人民币386,520.00元。
案发后，公安机关从被告人黄𪚥龙处扣押下列物品：
| 序号 | 物品名称 | 数量 | 金额/备注 || 1 | 现金 | — | 人民币52,300.00元 || 2 | 华为Mate 30手机 | 1部 | IMEI 8612340567×××× || 3 | 笔记本电脑（ThinkPad X1） | 1台 | 已封存 || 4 | 冷钱包（Ledger Nano S） | 1个 | 内存USDT 12,000.5枚 |
认定上述事实的证据如下：被害人陈述、银行交易明细、电子数据提取笔录、扣押清单、被告人的供述和辩解等。
{font=黑体|本院}认为，被告人黄𪚥龙以非法占有为目的，虚构事实、隐瞒真相，骗取他人财物，数额巨大，其行为触犯了《中华人民共和国刑法》第二百六十六条，犯罪事实清楚，证据确实、充分，应当以诈骗罪追究其刑事责任。根据《中华人民共和国刑事诉讼法》第一百七十六条的规定，提起公诉，请依法判处。
#L 此致
#L 上海市浦东新区人民法院
#L 检　察　官：<tab>李某某
#L 检察官助理：<tab>陈某
#R 二〇二〇年十月九日<br>（院印）
#L 附：<br>1．被告人黄𪚥龙现羁押于上海市浦东新区看守所；<br>2．案卷材料和证据3册。
''', title_font='华文中宋', title_size=22, body_font='仿宋', body_size=16, table_font='宋体', table_size=10.5)

# ---------------------------------------------------------------- dev / rtf
D('dev', 'bqs_fading.rtf', '''
#C 北京市朝阳区人民检察院
#T 不起诉决定书
#R 京朝检刑不诉〔2019〕Z12号
#L 被不起诉人邓𠮷祥，男，1968年9月1日出生，汉族，小学文化，农民，住河北省三河市某村。因涉嫌盗窃罪于2019年2月11日被北京市公安局朝阳分局取保候审。
本案由北京市公安局朝阳分局侦查终结，以被不起诉人邓𠮷祥涉嫌盗窃罪，于2019年3月28日向本院移送审查起诉。
经本院依法审查查明：2019年2月10日9时许，被不起诉人邓𠮷祥在本区某废品回收站附近，拾取他人放置在路边的旧电动车电瓶4块，后以人民币260元的价格出售。经鉴定，涉案电瓶价值人民币480元。邓𠮷祥误以为该电瓶系他人丢弃物品，案发后已全额退赔。
{size=18;b|本院}认为，邓𠮷祥的上述行为，情节显著轻微、危害不大，不认为是犯罪。依据《中华人民共和国刑事诉讼法》第十六条第（一）项和第一百七十七条第一款的规定，决定对邓𠮷祥不起诉。
{i|被不起}诉人如不服本决定，可以自收到本决定书后七日以内向本院申诉。
被害人如不服本决定，可以自收到本决定书后七日以内向北京市人民检察院第三分院申诉，请求提起公诉；也可以不经申诉，直接向北京市朝阳区人民法院提起自诉。
#R 北京市朝阳区人民检察院
#R 二〇一九年四月十五日
''', header='北京市朝阳区人民检察院', footer='第{PAGE}页', title_font='方正小标宋简体', body_font='仿宋_GB2312', body_size=16)

D('dev', 'xs_yishen_daoqie.rtf', '''
#C 广东省深圳市南山区人民法院
#T 刑事判决书
#R （2020）粤0305刑初1588号
#L 公诉机关深圳市南山区人民检察院。
#L 被告人林某甲，男，1999年1月23日出生，汉族，初中文化，无固定职业。因涉嫌犯盗窃罪于2020年7月3日被刑事拘留，同年8月7日被逮捕。
#L 被告人林某乙，男，2001年10月9日出生，汉族，初中文化，无固定职业。因涉嫌犯盗窃罪于2020年7月3日被刑事拘留，同年8月7日被逮捕。
深圳市南山区人民检察院以深南检刑诉〔2020〕1320号起诉书指控被告人林某甲、林某乙犯盗窃罪，于2020年9月10日向本院提起公诉。本院适用简易程序，实行独任审判，公开开庭审理了本案。现已审理终结。
{i|经审理}查明：2020年6月至7月间，被告人林某甲、林某乙结伙，先后三次在南山区科技园某写字楼内，盗窃笔记本电脑、平板电脑等物品，经鉴定共计价值人民币23,4{b|56.78}元。具体如下：
| 时间 | 被盗物品 | 价值（人民币） || 2020年6月12日 | MacBook Pro笔记本电脑1台 | 12,800.00元 || 2020年6月28日 | iPad Air平板电脑2台 | 7,156.78元 || 2020年7月2日 | Switch游戏机1台 | 3,500.00元 |
**本院**认为，被告人林某甲、林某乙以非法占有为目的，多次盗窃他人财物，数额较大，其行为均已构成盗窃罪。公诉机关指控的罪名成立。二被告人均自愿认罪认罚，依法可以从宽处理。依照《中华人民共和国刑法》第二百六十四条、第二十五条第一款、第六十七条第三款之规定，判决如下：
#L 一、被告人林某甲犯盗窃罪，判处有期徒刑十个月，并处罚金人民币三千元。
#L 二、被告人林某乙犯盗窃罪，判处有期徒刑八个月，并处罚金人民币二千元。
#L 三、责令二被告人共同退赔被害人经济损失人民币23,456.78元。
如不服本判决，可在接到判决书的第二日起十日内，通过本院或者直接向广东省深圳市中级人民法院提出上诉。本判决书生效后将在[[中国裁判文书网|https://wenshu.court.gov.cn/website/wenshu/181029CR4M5A62CH/index.html]]公布。
#R 审判员　杨某某
#R 二〇二〇年十月二十二日
#R 书记员　何某
''', title_font='黑体', title_size=22, body_font='宋体', body_size=14, table_font='楷体', table_size=10.5)

D('dev', 'bqs_cunyi.rtf', '''
#C 浙江省杭州市西湖区人民检察院
#T 不起诉决定书
#R 杭西检刑不诉〔2021〕33号
#L 被不起诉人徐某某，男，1987年12月6日出生，汉族，硕士研究生文化，某网络公司技术总监，住杭州市西湖区。<br>因涉嫌职务侵占罪于2021年1月15日被杭州市公安局西湖区分局刑事拘留，同年2月20日经本院决定取保候审。
本案由杭州市公安局西湖区分局侦查终结，以被不起诉人徐某某涉嫌职务侵占罪，于２０２１年３月１０日向本院移送审查起诉。本院于2021年4月24日、6月8日两次退回侦查机关补充侦查，侦查机关于2021年5月21日、7月6日两次补查重新移送审查起诉。
**经本**院审查并退回补充侦查，本院仍然认为杭州市公安局西湖区分局认定的犯罪事实不清、证据不足，具体理由如下：
#N 现有证据不能证实徐某某利用职务便利，将公司服务器内价值人民币1,580,000元的源代码据为己有；
#N 涉案电子数据提取程序不规范，哈希值（SHA-256）校验记录缺失，真实性无法确认；
#N 证人证言之间存在矛盾，且无其他证据予以印证。
本院认为，本案不符合起诉条件。依照《中华人民共和国刑事诉讼法》第一百七十五条第四款的规定，决定对徐某某不起诉。
被害单位如不服本决定，可以自收到本决定书后七日以内向杭州市人民检察院申诉，请求提起公诉；也可以不经申诉，直接向杭州市西湖区人民法院提起自诉。
#L 检察长：<tab>王某某
#R 杭州市西湖区人民检察院<br>二〇二一年八月三十日
#L 抄送：<tab>杭州市公安局西湖区分局<br><tab>杭州某网络科技有限公司
''', title_font='方正小标宋简体', title_size=22, body_font='仿宋_GB2312', body_size=16)

D('dev', 'xs_ershen_weixian.rtf', '''
#C 江苏省南京市中级人民法院
#T 刑事裁定书
#R （2021）苏01刑终215号
#L 原公诉机关南京市鼓楼区人民检察院。
#L 上诉人（原审被告人）郭𠀋，男，1980年5月14日出生，汉族，本科文化，住南京市鼓楼区。因涉嫌犯危险驾驶罪于2021年3月2日被取保候审。
南京市鼓楼区人民法院审理南京市鼓楼区人民检察院指控原审被告人郭𠀋犯危险驾驶罪一案，于2021年6月3日作出（2021）苏0106刑初377号刑事判决。原审被告人郭𠀋不服，提出上诉。本院依法组成合议庭审理了本案，现已审理终结。
原判认定：2021年3月1日23时许，被告人郭𠀋酒后驾驶车牌号为苏A·8K3T5的小型轿车行驶至鼓楼区中山北路时，被执勤民警查获。经检验，郭𠀋血液中乙醇含量为186.4mg/100ml^^根据GB 19522-2010《车辆驾驶人员血液、呼气酒精含量阈值与检验》，血液中的酒精含量大于或者等于80mg/100ml的，属于醉酒驾车。^^。原判以危险驾驶罪判处郭𠀋拘役三个月，并处罚金人民币6,000元。
上诉人郭𠀋上诉提出，其系在停车场内短距离挪车，原判量刑过重。
#P 经审理查明的事实与原判一致。上述事实，有现场执法记录仪视频（DV-0301.mp4）、呼气酒精测试单、血液乙醇检验报告、证人证言及上诉人的供述等证据证实，本院予以确认。
**本院**认为，上诉人郭𠀋在道路上醉酒驾驶机动车，其行为已构成危险驾驶罪。关于上诉人所提系短距离挪车的意见，经查，中山北路系城市道路，不属于停车场，该上诉意见不能成立，本院不予采纳。原判认定事实清楚，证据确实、充分，适用法律正确，量刑适当，审判程序合法。依照《中华人民共和国刑事诉讼法》第二百三十六条第一款第（一）项之规定，裁定如下：
#L 驳回上诉，维持原判。
#L 本裁定为终审裁定。
#R 审判长　冯某
#R 审判员　陈某
#R 审判员　褚某
#R 二〇二一年九月六日
#R 书记员　卫某
''', title_font='宋体', title_size=22, body_font='宋体', body_size=12, latin_font='Arial')


# ---------------------------------------------------------------- dev / unreadable
D('dev', 'jiami_qisushu.doc', '''
#C 北京市西城区人民检察院
#T 起诉书
#R 京西检刑诉〔2019〕301号
被告人赵某某，男，1979年5月6日出生，因涉嫌合同诈骗罪于2019年1月8日被刑事拘留。
本院认为，被告人赵某某的行为触犯了《中华人民共和国刑法》第二百二十四条，应当以合同诈骗罪追究其刑事责任。
''', password='abc', why='Word 97-2003 .doc encrypted with the open password "abc" (FIB fEncrypted set, RC4 '
    'encryption header version 1.1 at the start of 1Table); without the password the text cannot be recovered. '
    'The reader should report it as encrypted/unreadable, not return garbage or an empty success.')

NOTES = {
 'xs_yishen_dupin.doc': 'First-instance drug-selling judgment. Spaced title "刑 事 判 决 书" (ASCII spaces inside the line). '
  'Mid-word formatting splits: "经审理" bold + "查明" plain; "本院" bold + "认为" plain; "3.5" underlined inside "净重共计3.5克". '
  'Latin/ASCII: wxid_k8m2p9, iPhone 8, case number （2018）京0105刑初123号; amounts 人民币12,345.60元, 人民币1,200元. '
  'Signature lines contain ideographic spaces (U+3000) inside the line that must be kept ("审　判　长　　孙某某"). '
  'A 3x4 table (被告人|罪名|主刑|附加刑): cell texts are in "cells" (substring check); any cell separator is acceptable '
  '(LibreOffice\'s own text export puts every cell on its own line, a tab-joined row is equally fine), so no table text is '
  'in "lines". In the .doc the cells end with \\x07 cell marks, which must not leak. Page header "北京市朝阳区人民法院刑事判决书" '
  'and footer "第 N 页 共 M 页" (PAGE / NUMPAGES fields; LibreOffice stores them in the header subdocument as '
  '\\x13 PAGE \\x14 3 \\x15 with a stale result "3") are in neither list: including or omitting header/footer text is accepted, '
  'but the field instructions must not appear.',
 'bqs_xiangdui.doc': '相对不起诉 decision. Manual line break (stored as \\x0b) inside the defendant paragraph: the text after the '
  'break ("因涉嫌盗窃罪于２０１９年３月５日…", full-width digits) must be its own line; the right-aligned "北京市海淀区人民检察院<br>'
  '二〇一九年五月二十日" likewise gives two lines. Hyperlink field in the middle of a sentence: LibreOffice writes '
  '\\x13 HYPERLINK "https://…" \\x01 \\x14 12309中国检察网 \\x15 (note the extra \\x01 object placeholder in the field code, and a '
  'Data stream); the display text must be inline, the URL and \\x01 must not appear. Mid-word runs: "经本院依法审查" in '
  '楷体_GB2312 + "查明" in the body font, "本院" italic + "认为", "被不" + bold "起诉" + "人". Page break before the 附注 '
  'paragraph (LibreOffice stores it as a paragraph property, not as a \\x0c character). Full-width "1．2．" typed numbering.',
 'xs_ershen_shanghai.doc': 'Second-instance judgment. Non-BMP name 吴𠮷 (U+20BB7, a surrogate pair in the UTF-16 text) and the '
  'Ext-A character 刘䶮 (U+4DAE) in many lines. A footnote after "轻伤一级": the main text holds the auto-number reference '
  'char \\x02, the footnote text sits in the footnote subdocument after the main text. Because a reader may or may not print '
  'the reference mark ("1") the anchor paragraph is not in "lines"; its text before and after the anchor is in "contains"; '
  'the footnote text itself is in neither list (but must not replace body text). Three auto-numbered items （1）（2）（3）: the '
  'numbers exist only in the list formatting, so the items are in "contains" and not in "lines" (a number prefix is accepted). '
  'Page break before the "本院认为" paragraph, whose "本院" is bold.',
 'qisushu_zhapian.doc': 'Indictment (fraud). Non-BMP name 黄𪚥龙 (U+2A6A5). Manual line breaks in the defendant paragraph, '
  'in "二〇二〇年十月九日<br>（院印）" and in "附：<br>1．…<br>2．…" (each piece its own line). A 5x4 seized-items table with '
  'Latin (华为Mate 30, ThinkPad X1, Ledger Nano S, IMEI …), amounts (人民币52,300.00元, USDT 12,000.5枚) and an em-dash cell; '
  'cells in "cells" (any separator). Signature lines "检　察　官：<TAB>李某某" contain a tab: not in "lines" (tab vs space both '
  'acceptable), pieces in "contains". "本院" in 黑体 + "认为" in the body font. Spaced title "起 诉 书".',
 'bqs_fading.rtf': '法定不起诉 decision in RTF. Non-BMP name 邓𠮷祥 (U+20BB7) written as \\uc0 \\u55362\\uc1 \\u57271\\\'3f (high '
  'surrogate without fallback, low surrogate with "?" fallback): the pair must be joined and no "?" emitted. Every CJK char '
  'is \\uNNNN\\\'3f and full-width punctuation has ASCII fallbacks (\\u65292\\\'2c), hence "，," etc. in "absent". Header '
  '"北京市朝阳区人民检察院" and footer "第N页" (PAGE field) appear twice in the file - inside LibreOffice\'s private '
  '{\\*\\pgdsctbl …} destination (which also holds "Default Page Style") and in the section; in neither list. "本院" 18pt bold '
  '+ "认为"; italic "被不起" + "诉人". Latin Z in the case number 京朝检刑不诉〔2019〕Z12号.',
 'xs_yishen_daoqie.rtf': 'First-instance theft judgment in RTF. A 3x4 table (\\intbl … \\cell … \\row) of stolen items with '
  'Latin (MacBook Pro, iPad Air, Switch) and amounts; cells in "cells" (any separator). Amount split across runs inside a '
  'number: "人民币23,4" + bold "56.78" + "元". "经审理" italic + "查明"; "本院" bold + "认为". Hyperlink field '
  '{\\field{\\*\\fldinst HYPERLINK "https://wenshu…"}{\\fldrslt 中国裁判文书网}} inside the last sentence: display text inline, '
  'URL absent. Table font 楷体.',
 'bqs_cunyi.rtf': '存疑不起诉 decision in RTF. \\line manual breaks (defendant paragraph; signature block). Tabs in "检察长：<TAB>王某某" '
  'and "抄送：<TAB>…\\line<TAB>…" (tab pieces only in "contains"). Three auto-numbered items: LibreOffice writes '
  '{\\listtext （1）\\tab} before each item and a \\listtable whose \\leveltext uses ASCII "(" ")" (LibreOffice itself '
  're-imports them as "(1)"); the items are in "contains". Full-width digits ２０２１年３月１０日; "经本" bold + "院审查" plain; '
  'Latin SHA-256.',
 'xs_ershen_weixian.rtf': 'Second-instance drunk-driving ruling in RTF. Non-BMP name 郭𠀋 (U+2000B). Footnote written as '
  '{\\super \\chftn{\\*\\footnote \\chftn …}} (LibreOffice puts \\footnote in a \\* destination) after "186.4mg/100ml"; the '
  'anchor paragraph is in "contains" as two halves, footnote text (with GB 19522-2010) in neither list but must not be '
  'spliced into the body paragraph. \\pagebb page break before "经审理查明…". Latin 苏A·8K3T5, DV-0301.mp4; Arial Latin font.',
}
