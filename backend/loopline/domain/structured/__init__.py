"""Structured cabling (DESIGN §6): the catalog of optics, panels, cassettes, trunks and cords,
polarity traced lane by lane, and optical loss against an optic's channel budget."""
