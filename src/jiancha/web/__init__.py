"""Use jiancha on one case: a decision with cited articles, an analysis and similar precedents (CLI and web)."""
