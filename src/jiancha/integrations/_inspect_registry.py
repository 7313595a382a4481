"""inspect_ai's entry point for jiancha (``[project.entry-points.inspect_ai]``): importing it registers the
``jiancha/pdp_bench`` task."""

from jiancha.integrations.inspect_task import pdp_bench  # noqa: F401
