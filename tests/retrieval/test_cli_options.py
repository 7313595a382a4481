"""The retrieval CLI's options are generated from the spec dataclasses: every field has its flag, values round-trip
into the spec, and choice lists come from the registries."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from jiancha.cli._dataclass_options import build, field_options
from jiancha.errors import ConfigError
from jiancha.retrieval.pipeline import RUN_METHODS, RetrievalSpec


def _leaf_paths(cls, path=()):
    for f in dataclasses.fields(cls):
        if f.metadata.get("cli") is False:
            continue
        tp = {x.name: x.type for x in dataclasses.fields(cls)}[f.name]
        sub = f.default_factory() if f.default_factory is not dataclasses.MISSING else None  # type: ignore[misc]
        if dataclasses.is_dataclass(sub):
            yield from _leaf_paths(type(sub), (*path, f.name))
        else:
            yield (*path, f.name)
        del tp


def test_every_spec_field_has_one_flag():
    opts = field_options(RetrievalSpec, skip=("dataset", "method"))
    assert {o.path for o in opts} == set(_leaf_paths(RetrievalSpec)) - {("dataset",), ("method",)}
    flags = [o.flag for o in opts]
    assert len(flags) == len(set(flags))                       # no two fields share a flag
    assert {"k1", "bm25-method", "ltr-model", "cv-split", "fuse-methods", "rrf-k", "ltr-dense"} <= set(flags)


def test_values_round_trip_into_the_spec():
    opts = field_options(RetrievalSpec, skip=("dataset", "method"))
    values = {o.name: o.default for o in opts}
    values.update(k1=1.2, fuse_methods="bm25,charge", weights="1,2", ltr_model="gbrt", reason_charges=False)
    spec = build(RetrievalSpec, opts, values, dataset="lecard-v1", method="fuse")
    assert spec.bm25.k1 == 1.2 and spec.fuse.methods == ("bm25", "charge") and spec.fuse.weights == (1.0, 2.0)
    assert spec.ltr.model == "gbrt" and spec.charge.reason_charges is False
    assert dataclasses.replace(spec, bm25=RetrievalSpec("x").bm25, fuse=RetrievalSpec("x").fuse,
                               ltr=RetrievalSpec("x").ltr, charge=RetrievalSpec("x").charge) == \
        RetrievalSpec("lecard-v1", method="fuse")
    values["weights"] = "1,x"
    with pytest.raises(ConfigError, match="--weights '1,x': expected comma-separated float"):
        build(RetrievalSpec, opts, values, dataset="lecard-v1")


def test_help_lists_methods_from_the_registry():
    from jiancha.cli.main import app

    res = CliRunner().invoke(app, ["retrieval", "run", "--help"], env={"COLUMNS": "300"})
    assert res.exit_code == 0
    assert ", ".join(RUN_METHODS) in res.output and "--ltr-model" in res.output and "--chunk-chars" in res.output
