"""Helpers for the training tests: fictional PDP records and a tiny Qwen3 model built locally (no download)."""

from __future__ import annotations

import json
from pathlib import Path

from jiancha.datasets.records import PDPRecord
from jiancha.law.labels import Decision

# Fictional cases, one template per class: (fact, articles, reasoning).
_CASES = {
    Decision.PROSECUTE: ("犯罪嫌疑人某甲于{d}日在某市某区超市内盗窃他人手机一部，价值人民币{v}元。",
                         ["cl:第二百六十四条", "cpl:第一百七十六条"],
                         "本院认为，犯罪嫌疑人某甲以非法占有为目的，盗窃他人财物，数额较大，应当以盗窃罪追究其刑事责任。"),
    Decision.DISCRETIONARY: ("犯罪嫌疑人某乙于{d}日醉酒驾驶机动车，血液酒精含量为{v}毫克每百毫升，未造成损害。",
                             ["cl:第一百三十三条之一", "cpl:第一百七十七条第二款"],
                             "本院认为，犯罪嫌疑人某乙犯罪情节轻微，认罪认罚，不需要判处刑罚，决定不起诉。"),
    Decision.STATUTORY: ("犯罪嫌疑人某丙于{d}日与他人发生争执，致对方轻微伤，经鉴定损失{v}元，属情节显著轻微。",
                         ["cpl:第十六条第（一）项", "cpl:第一百七十七条第一款"],
                         "本院认为，犯罪嫌疑人某丙的行为情节显著轻微、危害不大，不认为是犯罪，决定不起诉。"),
    Decision.INSUFFICIENT_EVIDENCE: ("公安机关指控犯罪嫌疑人某丁于{d}日诈骗他人{v}元，经两次退回补充侦查，证据仍然不足。",
                                     ["cpl:第一百七十五条第四款"],
                                     "本院认为，本案事实不清、证据不足，不符合起诉条件，决定不起诉。"),
}


def make_record(decision: Decision, i: int, *, fact: str | None = None) -> PDPRecord:
    tmpl, articles, reasoning = _CASES[decision]
    return PDPRecord(
        id=f"测检刑不诉〔2021〕{decision.code}{i:03d}号",
        person_info=f"犯罪嫌疑人某{i}，男，1990年出生，汉族，初中文化。",
        procedure=f"本案由某市公安局侦查终结，于2021年{1 + i % 12}月移送本院审查起诉。",
        fact=fact if fact is not None else tmpl.format(d=1 + i % 28, v=1000 + 37 * i),
        decision=decision.value,
        relevant_articles=tuple(articles),
        date="2021-06-01",
        province="某省",
        raw_reasoning_and_decision=reasoning,
        source_url=f"https://example.org/{decision.code}/{i}",
    )


def make_pool(per_class: dict[Decision, int]) -> list[PDPRecord]:
    return [make_record(d, i) for d, n in per_class.items() for i in range(n)]


def write_pool(path: Path, records: list[PDPRecord]) -> Path:
    path.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------------ tiny model

CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if message['role'] == 'assistant' %}<|im_start|>assistant\n{% generation %}{{ message['content'] }}"
    "<|im_end|>{% endgeneration %}\n"
    "{% else %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endif %}"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_tiny_model(out: Path, corpus: list[str]) -> Path:
    """2-layer Qwen3 (hidden 64) with a byte-level BPE trained on ``corpus`` and a chat template."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=1500, special_tokens=specials,
                                                        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(out)
    cfg = Qwen3Config(vocab_size=len(fast), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=8192,
                      tie_word_embeddings=True, eos_token_id=fast.eos_token_id, pad_token_id=fast.pad_token_id)
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(cfg)
    model.generation_config.eos_token_id = fast.eos_token_id
    model.generation_config.pad_token_id = fast.pad_token_id
    model.save_pretrained(out)
    return out
