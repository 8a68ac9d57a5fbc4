"""kb: a bilingual knowledge base for the Magic: The Gathering Comprehensive Rules and set FAQs."""

__version__ = "0.1.0"
