"""The rules in force for a campaign: loading, the GM's overlay, its version, the Regras form, the page texts."""
