"""The pages: one blueprint per area, registered in this order by ``create_app``.

``games`` (home, new game, the game and its deal entry, score sheet and downloads),
``sharing`` (view and edit links), ``live`` (the stream of new versions, the live parts,
earlier deals, the change log), ``screen`` (the big screen), ``tables`` (tables, their
archive, records, export and import), ``rules`` (the rules pages and the tie-break
settler), ``install`` (the web app manifest), ``offline`` (the service worker and its
page) and ``i18n`` (the language chooser). What they share: forms, the game page's
context, the change log, charts, score sheets, share links, the rule book and error pages.
"""
