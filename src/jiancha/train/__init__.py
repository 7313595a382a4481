"""jiancha.train"""
