"""jiancha.build"""
