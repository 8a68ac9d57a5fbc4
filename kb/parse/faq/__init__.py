"""Set FAQs: header (`header`), paragraphs and positions (`blocks`), cards, rulings and notes (`parse`)."""
