"""Dataset registry with hierarchical ids (``pdp/test``, ``lecard-v2/test``), in the manner of ir_datasets.

Each entry records its provenance: where the data comes from (hub id or the raw file URLs of the official
repository, with sizes and SHA-256 where known), its licence, the published counts, and any manual step.
Sizes and checksums were taken from copies of the official files (LeCaRD ``main`` branches as of 2026); a
file changed upstream since then fails verification with a message that says so (``--no-verify`` skips it).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from jiancha._util.cache import resolve_cache_dir
from jiancha.errors import ConfigError

DOWNLOAD_BASE_ENV = "JIANCHA_DOWNLOAD_BASE"


@dataclass(frozen=True)
class RemoteFile:
    """One file of a dataset: ``path`` inside the dataset folder, equal to its path in the source repository."""

    path: str
    size: int | None = None
    sha256: str | None = None
    optional: bool = False   # listed in the official README but not confirmed in the repository
    unpack: bool = False     # a zip archive, unpacked into its own folder after download


@dataclass(frozen=True)
class DatasetSpec:
    """What defines a dataset: id, kind (which loader), provenance, published counts, manual steps."""

    id: str
    kind: str                        # "pdp" | "lecard-v1" | "lecard-v2" | "cail2018"
    description: str
    homepage: str
    license: str
    cache_name: str                  # folder under the cache; children share their parent's folder
    base_url: str | None = None      # raw files live at ``<base_url>/<path>``
    files: tuple[RemoteFile, ...] = ()
    hub_id: str | None = None
    split: str | None = None
    counts: Mapping[str, int] = field(default_factory=dict)
    manual_step: str | None = None
    citation: str = ""

    @property
    def downloadable(self) -> bool:
        return bool(self.files or self.hub_id)


def _counts(**kw: int) -> Mapping[str, int]:
    return MappingProxyType(dict(kw))


_PDP: dict[str, str] = {
    "kind": "pdp", "homepage": "https://huggingface.co/datasets/Julian2002/PDP-Bench (code: github.com/lu-jun-yu/PDP)",
    "license": "see the dataset card", "cache_name": "pdp", "hub_id": "Julian2002/PDP-Bench",
    "citation": "PDP: Prosecution Decision Prediction (PDP-Bench)"}

_LECARD_V1_BASE = "https://raw.githubusercontent.com/myx666/LeCaRD/main"
_LECARD_V1_FILES = (
    RemoteFile("data/query/query.json", 147327, "adf8d5ae49c5dcf72e64196a0c28b0408758efe98d915fba846b52dc77060c8d"),
    RemoteFile("data/query/common_query.json", optional=True),
    RemoteFile("data/query/controversial_query.json", optional=True),
    RemoteFile("data/label/golden_labels.json", 5807,
               "785dff40c4e8c5ea7d3ccc47439187bfaf8542455d80bb502d44bd63079900fc"),
    RemoteFile("data/label/label_top30_dict.json", 28066,
               "f9f5d6569d2ac6084769fbc60dc46f3999b0eb1708f404256edf58172c02db39"),
    RemoteFile("data/label/label_top30.json", optional=True),
    RemoteFile("data/prediction/bm25_top100.json", 73884,
               "aee21910bb717eaecabbff76764cc94f44ad3eb4bb3acbf5728f36a2bdd42aad"),
    RemoteFile("data/prediction/combined_top100.json", 73097,
               "2041bd2f8d84a59db95231d4ce324b51a68a88122262b35126cfc6ecd9a1b3dd"),
    RemoteFile("data/prediction/lm_top100.json", 73912,
               "410d357df246064581e90c42d9febbf8720fbf9b615ba870b6563aa495e9191a"),
    RemoteFile("data/prediction/tfidf_top100.json", 73968,
               "ebee7f3cb79030f6476255a3465ef5015965e3bfaaa5a9f051b8f65c8c2e4f75"),
    RemoteFile("data/others/criminal charges.txt", 14764,
               "4060d2c30019ee503e029fe739c6d00de62a22f0e60ea54aced6512fe2e21a26"),
    RemoteFile("data/others/stopword.txt", 4716, "9ad2ed0845f0131e8eb2818c036031ea40c910e118d66ed8d28bcdfc860453c3"),
    # The candidate pools (100 judgments per query), as the official README tells to unzip them.
    RemoteFile("data/candidates/candidates1.zip", unpack=True),   # queries 1-50
    RemoteFile("data/candidates/candidates2.zip", unpack=True),   # queries 51-107
)

_LECARD_V2_BASE = "https://raw.githubusercontent.com/THUIR/LeCaRDv2/main"
_LECARD_V2_FILES = (
    RemoteFile("query/query.json"),
    RemoteFile("query/train_query.json", optional=True),
    RemoteFile("query/test_query.json", 1924830,
               "fc660ce7af6ffd17635cb51c084a559c0391fcd53278bdf2b4a138baeb7ebbcb"),
    RemoteFile("query/common_query.json", optional=True),
    RemoteFile("query/controversial_query.json", 1277298,
               "2f15905ab95ad87cefafbe0da2dc795ac5d5022540efdae6999fb12c7efb0c70"),
    RemoteFile("query/procedural_query.json", 737014,
               "949aa2425b18aba598c6f13fb23a8f11c505b3af7187afd7d4e1e57e5d83f672"),
    RemoteFile("label/relevence.trec", 373998, "b6b98c268b587163daf52e1bbcc1d7a3f45ce3c9388102ba3662346b36a225ce"),
    RemoteFile("label/relevence_gold.trec", 298426,
               "8189159aeb5bf0a512ff6f8f457f218b2b3d046d48c833ee3ba5a0e7c0fc34d9"),
    RemoteFile("label/test_relevence.trec", 74916,
               "831b1b4053b8e793568f77bc13a456f1b1247ff17d3211761f93d0eeabde9f99"),
    RemoteFile("label/test_relevence_gold.trec", 60910,
               "68f5c634bb9a307212b16a204e29312c317762b7a84e18c6b6ec4e659f5146ab"),
    RemoteFile("label/ranking_pool.json", 722231, "0dc96a9177c496523edbd5a817ba185fff3dba1661bcb7e372acf999fa8c5267"),
    RemoteFile("others/criminal charges.txt", 14764,
               "4060d2c30019ee503e029fe739c6d00de62a22f0e60ea54aced6512fe2e21a26", optional=True),
    RemoteFile("others/stopword.txt", 4716, "9ad2ed0845f0131e8eb2818c036031ea40c910e118d66ed8d28bcdfc860453c3",
               optional=True),
)

LECARD_V2_CANDIDATES_URL = "https://drive.google.com/file/d/1CqQ0ID5_9-qxaZm9TGLh38dVhLfYnl_C/view?usp=share_link"
_LECARD_V2_MANUAL = (
    "The 55,192 LeCaRDv2 candidate documents are not in the GitHub repository: the official README links them on "
    f"an external drive ({LECARD_V2_CANDIDATES_URL}). Download that archive in a browser, unpack it, and put the "
    "candidate files (<pid>.json, one document each) into the folder {target}/candidate/ ; "
    "`jiancha data info {target}` then counts them."
)

_CAIL_HOME = "https://github.com/thunlp/CAIL (data: CAIL2018_ALL_DATA.zip, linked from the README)"
_CAIL_MANUAL = (
    "CAIL2018 is distributed as one archive linked from the README of https://github.com/thunlp/CAIL "
    "(CAIL2018_ALL_DATA.zip). Download and unpack it, then put the JSON-lines files (data_train.json, "
    "data_valid.json, data_test.json, …) and the label lists accu.txt and law.txt into {target}/ ."
)

_SPECS: tuple[DatasetSpec, ...] = (
    DatasetSpec(id="pdp", description="PDP-Bench: 4,630 de-identified non-prosecution and prosecution "
                "documents with the four-way decision and cited articles (splits test, test_rq2)",
                counts=_counts(test=4630, test_rq2=100), **_PDP),
    DatasetSpec(id="pdp/test", description="PDP-Bench test split (2014-01 to 2026-03, 31 provinces, 190 charges)",
                split="test", counts=_counts(records=4630, 起诉=4008, 相对不起诉=480, 法定不起诉=41, 存疑不起诉=101),
                **_PDP),
    DatasetSpec(id="pdp/test_rq2", description="PDP-Bench 100-case subset, 25 per class, drawn from test with "
                "random.Random(42) (recreated from test when absent)", split="test_rq2",
                counts=_counts(records=100, 起诉=25, 相对不起诉=25, 法定不起诉=25, 存疑不起诉=25), **_PDP),
    DatasetSpec(id="pdp/sample", kind="pdp", description="bundled fictional PDP-format sample (no download)",
                homepage="(bundled with jiancha)", license="MIT", cache_name="pdp-sample", split="test"),
    DatasetSpec(id="lecard-v1", kind="lecard-v1", description="LeCaRD: 107 query cases, 100 candidate judgments "
                "per query, graded labels of the top-30 candidates", homepage="https://github.com/myx666/LeCaRD",
                license="MIT", cache_name="lecard-v1", base_url=_LECARD_V1_BASE, files=_LECARD_V1_FILES,
                counts=_counts(queries=107, candidates=10700),
                citation="Ma et al., LeCaRD: A Legal Case Retrieval Dataset for Chinese Law System, SIGIR 2021"),
    DatasetSpec(id="lecard-v2", kind="lecard-v2", description="LeCaRDv2: 800 queries, 55,192 candidates, "
                "relevance labels (all and gold >= 2), ranking pools of 100",
                homepage="https://github.com/THUIR/LeCaRDv2", license="MIT", cache_name="lecard-v2",
                base_url=_LECARD_V2_BASE, files=_LECARD_V2_FILES, manual_step=_LECARD_V2_MANUAL,
                counts=_counts(queries=800, train_queries=640, test_queries=160, candidates=55192),
                citation="Li et al., LeCaRDv2: A Large-Scale Chinese Legal Case Retrieval Dataset, 2023"),
    DatasetSpec(id="lecard-v2/test", kind="lecard-v2", description="LeCaRDv2 test queries (160) and their labels",
                homepage="https://github.com/THUIR/LeCaRDv2", license="MIT", cache_name="lecard-v2",
                base_url=_LECARD_V2_BASE, files=_LECARD_V2_FILES, manual_step=_LECARD_V2_MANUAL, split="test",
                counts=_counts(queries=160)),
    DatasetSpec(id="lecard-v2/candidates", kind="lecard-v2", description="LeCaRDv2 candidate documents "
                "(manual download from an external drive)", homepage=LECARD_V2_CANDIDATES_URL, license="MIT",
                cache_name="lecard-v2", manual_step=_LECARD_V2_MANUAL, counts=_counts(candidates=55192)),
    DatasetSpec(id="cail2018", kind="cail2018", description="CAIL2018 criminal judgments for charge, article "
                "and term prediction (the LJP reference task; 202 charges, 183 articles)", homepage=_CAIL_HOME,
                license="see the CAIL repository", cache_name="cail2018", manual_step=_CAIL_MANUAL,
                counts=_counts(charges=202, articles=183),
                citation="Xiao et al., CAIL2018: A Large-Scale Legal Dataset for Judgment Prediction, 2018"),
)

REGISTRY: Mapping[str, DatasetSpec] = MappingProxyType({s.id: s for s in _SPECS})


def list_datasets() -> list[DatasetSpec]:
    return list(REGISTRY.values())


def get_dataset(dataset_id: str) -> DatasetSpec:
    """The registry entry of ``dataset_id``; ConfigError with the closest ids when unknown."""
    spec = REGISTRY.get(dataset_id)
    if spec is not None:
        return spec
    close = difflib.get_close_matches(dataset_id, list(REGISTRY), n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise ConfigError(f"unknown dataset {dataset_id!r}{hint} (known: {', '.join(REGISTRY)})")


def dataset_dir(spec: DatasetSpec, cache_dir: str | os.PathLike | None = None) -> Path:
    """Folder a dataset is downloaded to: ``<cache>/<cache_name>`` (children share their parent's folder); the
    cache is ``cache_dir`` or :func:`jiancha._util.cache.default_cache_dir`."""
    return resolve_cache_dir(cache_dir) / spec.cache_name
