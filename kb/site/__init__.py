"""Site: the static website.

In: `KnowledgeBase`. Out: a folder of HTML pages with kb's own search index (`searchpages`). `gather` collects
everything the pages need first (`parts` cuts what is too large for one page), `render` turns text into safe
HTML, `write` renders the templates and swaps the new site in atomically, `serve` serves it on 127.0.0.1.
"""
