"""jiancha.llm"""
