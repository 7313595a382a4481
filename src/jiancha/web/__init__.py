"""jiancha.web"""
