"""Comprehensive rules: lines classified by a table of line rules (`lines`), then records (`rules`)."""
