"""One evaluation loop for every task.

- ``jiancha.evaluation.task``: ``Task`` (what a benchmark is: samples, messages, parser, scorer), ``Sample``,
  ``Verdict``, ``OfflineOutput``.
- ``jiancha.evaluation.runner``: ``run_task`` (the loop into a resumable run directory), ``plan_requests``.
- ``jiancha.evaluation.summary``: ``RunSummary``, ``RunHealth`` and ``render_summary`` (what a run did).
- ``jiancha.evaluation.stats``: ``mean_se`` over repeats.
"""
