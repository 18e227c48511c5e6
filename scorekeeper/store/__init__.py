"""Storage: the models and the services that keep games, tables and their records.

``models`` are the tables; ``games`` stores games and deals (one transaction per change),
``tables`` the groups that play together and their archive, ``records`` the per-seat rows
the statistics read, ``stats`` those statistics, ``exchange`` export and import, and
``tokens`` the edit tokens. No module here knows about pages or the JSON API.
"""
