"""The pages: one blueprint per area (``games``, ``sharing``, ``live``, ``tables``,
``i18n``) and the helpers they share: forms, htmx, edit rights, charts, error pages.
"""
