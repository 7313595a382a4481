"""jiancha.retrieval"""
